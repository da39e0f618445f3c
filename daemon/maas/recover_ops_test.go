package maas_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Abort and mark_fixed on the paths the workflows use them: aborting a
// deploy leaves the machine Allocated; a Broken machine that was Ready is
// Ready again once fixed.
func TestAbortAndMarkFixedSucceed(t *testing.T) {
	e := newEnv(t, 2)
	ctx := context.Background()
	ms, err := e.client.Machines(ctx, lifecycle.MachineFilter{})
	if err != nil || len(ms) != 2 {
		t.Fatalf("machines: %v %v", ms, err)
	}
	deploying, broken := ms[0].SystemID, ms[1].SystemID
	if _, err := e.client.Deploy(ctx, deploying, lifecycle.DeploySpec{DistroSeries: "jammy"}); err != nil {
		t.Fatal(err)
	}
	m, err := e.client.Abort(ctx, deploying, "operator changed their mind")
	if err != nil {
		t.Fatalf("abort: %v", err)
	}
	e.advance(time.Minute)
	if m, _ = e.client.Machine(ctx, deploying); m.Status != lifecycle.MaasAllocated {
		t.Fatalf("after abort: %s", m.Status)
	}
	if err := e.sim.MarkBrokenOutOfBand(ctx, broken, "disk noise"); err != nil {
		t.Fatal(err)
	}
	if m, _ = e.client.Machine(ctx, broken); m.Status != lifecycle.MaasBroken {
		t.Fatalf("mark broken: %s", m.Status)
	}
	if m, err = e.client.MarkFixed(ctx, broken, "reseated"); err != nil || m.Status != lifecycle.MaasReady {
		t.Fatalf("mark fixed: %s %v", m.Status, err)
	}
}
