package reconcile_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

func requireHWSync(_ *lifecycle.Site, p *lifecycle.SitePolicy) { p.RequireHWSync = true }

// hwSyncOff is an active node on a Deployed machine whose enable_hw_sync
// an admin turned off (its timer stopped an hour ago, so the sync stays
// unhealthy after the flag is back).
func hwSyncOff(t *testing.T, e *simEnv) (id, sid string) {
	ctx := context.Background()
	sid, err := e.sim.AddMachine(maassim.HostSpec{}, "gpu-a1", maassim.StatusDeployed)
	must(t, err)
	m, err := e.client.Machine(ctx, sid)
	must(t, err)
	id = e.bind(sid, m.IPs[0])
	must(t, e.sim.SetHardwareSyncOutOfBand(ctx, sid, false, 900, time.Now().Add(-time.Hour)))
	return id, sid
}

// Hardware sync turned off out of band on an active node is turned back
// on in MAAS once (the next pass sees the flag on) and one reseed queued.
func TestHWSyncTurnedOffIsTurnedBackOn(t *testing.T) {
	e := newSimEnv(t, requireHWSync)
	id, sid := hwSyncOff(t, e)
	put := "PUT /MAAS/api/2.0/machines/" + sid + "/"
	e.pass()
	e.pass()
	if n := e.log.count(put); n != 1 {
		t.Fatalf("%d PUTs of %s over two passes, want 1", n, sid)
	}
	m, err := e.client.Machine(context.Background(), sid)
	must(t, err)
	if !m.HWSyncEnabled {
		t.Fatal("enable_hw_sync still off in MAAS")
	}
	if n := e.reseeds(id); n != 1 {
		t.Fatalf("%d reseed tasks, want 1", n)
	}
	st, err := e.store.GetNodeMaasState(context.Background(), id)
	must(t, err)
	if st.DriftRule != lifecycle.DriftHWSyncUnhealthy || !st.DriftDetected || !st.HWSyncEnabled {
		t.Fatalf("drift record %+v", st)
	}
	audits, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{TargetID: id, Action: "reconcile.enable_hw_sync"})
	must(t, err)
	if len(audits) != 1 || e.actions("enable_hw_sync") != 1 || e.actions("reseed_hw_sync") != 1 {
		t.Fatalf("%d audit entries, actions: enable %v, reseed %v", len(audits), e.actions("enable_hw_sync"), e.actions("reseed_hw_sync"))
	}
}

// A failed MAAS call is not fatal: nothing is queued, the pass goes on,
// and the next pass tries again.
func TestHWSyncEnableFailureIsRetriedNextPass(t *testing.T) {
	e := newSimEnv(t, requireHWSync)
	id, sid := hwSyncOff(t, e)
	put := "PUT /MAAS/api/2.0/machines/" + sid + "/"
	e.sim.SetOpFault("PUT machine", maassim.OpFault{ErrorRate: 1})
	e.pass()
	if n := e.log.count(put); n != 1 || e.reseeds(id) != 0 || e.actions("enable_hw_sync") != 0 {
		t.Fatalf("after a failed PUT: %d PUTs, %d reseeds", n, e.reseeds(id))
	}
	e.sim.SetOpFault("PUT machine", maassim.OpFault{})
	e.pass()
	m, err := e.client.Machine(context.Background(), sid)
	must(t, err)
	if n := e.log.count(put); n != 2 || !m.HWSyncEnabled || e.reseeds(id) != 1 {
		t.Fatalf("retry: %d PUTs, enable_hw_sync %v, %d reseeds", n, m.HWSyncEnabled, e.reseeds(id))
	}
}
