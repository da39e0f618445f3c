package fakehost_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/health"
	"github.com/gpuaas/maas-sidecar/agent/hostexec"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// accepting is a daemon that accepts every report.
type accepting struct{ got []wire.HealthReport }

func (a *accepting) Health(_ context.Context, _ string, r wire.HealthReport) error {
	a.got = append(a.got, r)
	return nil
}

// TestXid79SeenByTheWatch: an Xid 79 injected on a running simulated
// host is the driver's kernel log line, and GPU 0 is gone from the fake
// nvidia-smi and from the PCI bus; the agent's passive watch, through
// the real exec seam, reports the Xid (reboot class) on GPU 0's bus, 7
// GPUs on the bus and 7 answering, and nothing unreadable. A reboot
// enumerates the GPU again.
func TestXid79SeenByTheWatch(t *testing.T) {
	root := t.TempDir()
	if err := fakehost.Provision(root, fakehost.Spec{ToolsDir: toolsDir(t), GPUs: fakehost.GPUs{Vendor: fakehost.VendorNVIDIA, Count: 8}}); err != nil {
		t.Fatal(err)
	}
	r := hostroot.Root(root)
	ex := hostexec.Runner{Root: r}
	post := &accepting{}
	w := &health.Watch{NodeID: "node-1", Interval: time.Minute, Root: r, Exec: ex, Post: post,
		Readers: []gpu.Reader{gpu.NVIDIA{Exec: ex}, gpu.AMD{Exec: ex, Root: r}}, Clock: clockwork.NewRealClock(), Log: slog.Default()}
	before := w.Pass(context.Background())
	if before.GPUCount != 8 || len(before.GPUs) != 8 || len(before.Xids) != 0 || len(before.Unreadable) != 0 {
		t.Fatalf("before: %d on the bus, %d answering, Xids %v, unreadable %v; want 8, 8, none, none",
			before.GPUCount, len(before.GPUs), before.Xids, before.Unreadable)
	}
	if _, err := fakehost.Inject(root, fakehost.Residue{Xid: 79}); err != nil {
		t.Fatal(err)
	}
	after := w.Pass(context.Background())
	if after.GPUCount != 7 || len(after.GPUs) != 7 || len(after.Unreadable) != 0 {
		t.Errorf("after: %d on the bus, %d answering, unreadable %v; want 7, 7, none", after.GPUCount, len(after.GPUs), after.Unreadable)
	}
	if len(after.Xids) != 1 || after.Xids[0].Code != 79 || after.Xids[0].Class != gpu.XidReboot || after.Xids[0].BusID != "00000000:18:00.0" {
		t.Errorf("after: Xids %+v; want one Xid 79 (reboot) on 00000000:18:00.0", after.Xids)
	}
	for _, g := range after.GPUs {
		if g.BusID == "00000000:18:00.0" {
			t.Errorf("GPU 0 still answers: %+v", g)
		}
	}
	if _, err := os.Stat(filepath.Join(root, fakehost.TextfileDir)); err != nil {
		t.Errorf("no node_exporter textfile directory for the agent's metrics: %v", err)
	}
	if again := w.Pass(context.Background()); len(again.Xids) != 0 {
		t.Errorf("the next pass reports %v again; want only new events", again.Xids)
	}
	if out, err := ex.Exec(context.Background(), "systemctl", "reboot"); err != nil {
		t.Fatalf("reboot: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(root, "sys/bus/pci/devices/0000:18:00.0/vendor")); err != nil {
		t.Errorf("after a reboot GPU 0 is not on the bus: %v", err)
	}
	if rb := w.Pass(context.Background()); rb.GPUCount != 8 || len(rb.GPUs) != 8 {
		t.Errorf("after a reboot: %d on the bus, %d answering; want 8, 8", rb.GPUCount, len(rb.GPUs))
	}
}
