package gpu

import (
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Kernel log lines in dmesg, ISO, journald short and ctime formats; an
// NVSwitch SXid and a continuation line are not GPU Xids; "fallen off
// the bus" with no Xid counts as 79.
func TestParseXidsClassifies(t *testing.T) {
	want := []XidEvent{
		{Bus: "0000:19:00", Code: 48, Class: XidQuarantine, What: "double-bit ECC error"},
		{Bus: "0000:19:00", Code: 63, Class: XidReset, What: "row remapping recorded"},
		{Bus: "0000:18:00", Code: 74, Class: XidReset, What: "NVLink error"},
		{Bus: "0000:1B:00", Code: 79, Class: XidReboot, What: "GPU has fallen off the bus"},
	}
	got := ParseXids(read(t, "kern-xid.log"))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if x := xidsOn(got, "00000000:19:00.0"); len(x) != 2 {
		t.Errorf("GPU 00000000:19:00.0 events = %v", x)
	}
	if c := classify("0000:01:00", 31); c.Class != XidRecord {
		t.Errorf("Xid 31 = %+v, want a recorded event", c)
	}
}

// Each event takes its line's time in the formats the kernel log comes
// in; a line with only the kernel's uptime has none.
func TestParseXidLinesTimes(t *testing.T) {
	b, err := os.ReadFile("testdata/kern-xid.log")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 7, 14, 8, 0, 0, 0, time.UTC)
	got := ParseXidLines(string(b)+"2026-07-14T07:13:00.5+02:00 h kernel: NVRM: Xid (PCI:0000:1c:00): 94, pid=1, name=x, y\n"+
		"Jul  4 07:14:00 h kernel: NVRM: Xid (PCI:0000:1d:00): 13, pid=1, name=x, y\n", now)
	want := []time.Time{{}, {}, time.Date(2026, 7, 14, 7, 10, 2, 0, time.UTC), time.Date(2026, 7, 14, 7, 12, 0, 0, time.UTC),
		time.Date(2026, 7, 14, 5, 13, 0, 5e8, time.UTC), time.Date(2026, 7, 4, 7, 14, 0, 0, time.UTC)}
	if len(got) != len(want) {
		t.Fatalf("%d events %+v, want %d", len(got), got, len(want))
	}
	for i, x := range got {
		if !x.At.Equal(want[i]) {
			t.Errorf("event %d (%v) at %v, want %v", i, x.XidEvent, x.At, want[i])
		}
	}
	if b := got[2].BusID(); b != "00000000:18:00.0" {
		t.Errorf("BusID() = %q, want nvidia-smi's form 00000000:18:00.0", b)
	}
}
