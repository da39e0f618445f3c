package gpu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// kernLog is the fallback kernel log file, under the host root.
const kernLog = "/var/log/kern.log"

// readXids reads the tenancy's Xid events from the kernel log: journalctl
// -k since the tenancy began (this boot when unknown), else the whole of
// /var/log/kern.log. The check lists every event with its class; a log
// that cannot be read fails it (unknown history is not clean).
func readXids(ctx context.Context, env task.Env, since time.Time) ([]XidEvent, wire.Check) {
	args := []string{"-k", "--no-pager", "-o", "short-iso", "-b"}
	source := "journalctl -k, this boot"
	if !since.IsZero() {
		args = []string{"-k", "--no-pager", "-o", "short-iso", "--since", fmt.Sprintf("@%d", since.Unix())}
		source = "journalctl -k since " + since.UTC().Format(time.RFC3339)
	}
	out, err := env.Exec.Exec(ctx, "journalctl", args...)
	if errors.Is(err, task.ErrNotFound) {
		out, err = os.ReadFile(env.Root.Path(kernLog))
		source = kernLog + " (whole file)"
	}
	if err != nil {
		return nil, wire.Check{Name: "kernel_xid", Reason: "kernel log unreadable, the tenancy's Xid history is unknown: " + err.Error()}
	}
	xids := ParseXids(string(out))
	var items []string
	for _, x := range xids {
		items = append(items, x.Bus+" "+x.String())
	}
	c := wire.Check{Name: "kernel_xid", Passed: true, Reason: fmt.Sprintf("%d Xid event(s) in %s", len(xids), source)}
	c.Items, c.Omitted = task.Cap(items)
	return xids, c
}

// xidsOn are the events of the GPU at busID.
func xidsOn(xids []XidEvent, busID string) []XidEvent {
	var out []XidEvent
	key := busPCIKey(busID)
	for _, x := range xids {
		if x.Bus == key {
			out = append(out, x)
		}
	}
	return out
}

// TenancyXids reads the Xid events since the tenancy began (the
// kernel_xid check) and returns them as history lines, "bus Xid n (...)",
// for the validation's DCGM escalation.
func TenancyXids(ctx context.Context, env task.Env, since time.Time) ([]string, wire.Check) {
	xids, c := readXids(ctx, env, since)
	var out []string
	for _, x := range xids {
		out = append(out, x.Bus+" "+x.String())
	}
	return out, c
}
