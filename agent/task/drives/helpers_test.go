package drives_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/task/drives"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// host is a provisioned host with fakehost's default drives: nvme0n1
// holds / and /boot/efi, nvme1n1 and nvme2n1 are data drives.
func host(t *testing.T) *tasktest.Host {
	t.Helper()
	h := tasktest.New(t)
	if err := fakehost.Provision(string(h.Root), fakehost.Spec{}); err != nil {
		t.Fatal(err)
	}
	return h
}

// zero overwrites n bytes of a device at off, as an erase would.
func zero(t *testing.T, h *tasktest.Host, dev string, off, n int64) {
	t.Helper()
	f, err := os.OpenFile(h.Path(dev), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(make([]byte, n), off); err != nil {
		t.Fatal(err)
	}
}

func nvmeState(h *tasktest.Host, ctrl, file, content string) {
	p := h.Path(filepath.Join("/var/lib/fakehost/nvme", ctrl, file))
	_ = os.MkdirAll(filepath.Dir(p), 0o755)
	_ = os.WriteFile(p, []byte(content), 0o644)
}

type hostT struct{ *tasktest.Host }

func drivesClean(t *testing.T, h hostT, p wire.DrivePolicy) ([]wire.DriveEvidence, []wire.Check, *wire.EraseEvidence) {
	t.Helper()
	evs, checks, sum := drives.Clean(context.Background(), h.Env(), p)
	if len(evs) != 1 || len(checks) != 2 || sum == nil {
		t.Fatalf("Clean = %+v, %+v, %+v", evs, checks, sum)
	}
	return evs, checks, sum
}
