package gpu

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Reader reads a vendor's GPUs without touching them: queries only, no
// reset, no diagnostic, no settings change, nothing a tenant's work
// would notice. Errors wrap task.ErrNotFound when the tool is missing.
type Reader interface {
	Name() string
	Read(ctx context.Context) ([]Device, error)
}

// Read implements Reader: the --query-gpu fields this driver offers and
// NVLink state and error counters (no compute processes).
func (n NVIDIA) Read(ctx context.Context) ([]Device, error) {
	devs, _, err := n.query(ctx)
	if err != nil {
		return nil, err
	}
	n.readNVLinks(ctx, devs)
	return devs, nil
}

// Read implements Reader: amd-smi's list, static, metric, process and
// bad-pages queries.
func (a AMD) Read(ctx context.Context) ([]Device, error) { return a.Inventory(ctx) }

// Xid is one Xid event of a kernel log line, with the line's time.
type Xid struct {
	XidEvent
	At time.Time // zero when the line carries no absolute time
}

// logTimes are the absolute timestamps a kernel log line may start with:
// journalctl -o short-iso, rsyslog's RFC 3339, ctime (dmesg -T), syslog's
// traditional.
var logTimes = []string{"2006-01-02T15:04:05-0700", time.RFC3339Nano, "Mon Jan _2 15:04:05 2006", "Jan _2 15:04:05"}

// ParseXidLines is ParseXids with each event's time read from the start
// of its line (year: now's, for syslog's format without one).
func ParseXidLines(log string, now time.Time) []Xid {
	var out []Xid
	for _, line := range strings.Split(log, "\n") {
		for _, e := range ParseXids(line) {
			out = append(out, Xid{XidEvent: e, At: lineTime(line, now)})
		}
	}
	return out
}

func lineTime(line string, now time.Time) time.Time {
	f := strings.Fields(line)
	for _, layout := range logTimes {
		n := strings.Count(layout, " ") + 1 // "Jul  4" splits into three fields too
		if len(f) < n {
			continue
		}
		t, err := time.Parse(layout, strings.Join(f[:n], " "))
		if err == nil && t.Year() == 0 {
			t = t.AddDate(now.Year(), 0, 0)
		}
		if err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// BusID is the event's bus in nvidia-smi's form (00000000:3B:00.0).
func (e XidEvent) BusID() string {
	p := strings.Split(e.Bus, ":")
	if len(p) != 3 {
		return e.Bus
	}
	d, _ := strconv.ParseUint(p[0], 16, 32)
	return fmt.Sprintf("%08X:%s:%s.0", d, p[1], p[2])
}
