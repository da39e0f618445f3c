package reconcile_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// writeLog is the bbolt store counting the reconciler's MAAS state
// writes; failBatch makes the batched write fail, and every quarantine
// checks that its drift was recorded before it.
type writeLog struct {
	*bolt.Store
	single, batches   atomic.Int32
	failBatch         atomic.Bool
	unrecordedActions atomic.Int32
}

func (w *writeLog) UpdateNodeMaasState(ctx context.Context, id string, fn func(*lifecycle.NodeMaasState) error) (lifecycle.NodeMaasState, error) {
	w.single.Add(1)
	return w.Store.UpdateNodeMaasState(ctx, id, fn)
}

func (w *writeLog) UpdateNodeMaasStates(ctx context.Context, ids []string, fn func(*lifecycle.NodeMaasState) error) ([]lifecycle.NodeMaasState, error) {
	w.batches.Add(1)
	if w.failBatch.Load() {
		return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, "writeLog", "disk full")
	}
	return w.Store.UpdateNodeMaasStates(ctx, ids, fn)
}

func (w *writeLog) TransitionNode(ctx context.Context, tr lifecycle.NodeTransition) (lifecycle.Node, error) {
	if st, err := w.Store.GetNodeMaasState(ctx, tr.NodeID); err != nil || !st.DriftDetected {
		w.unrecordedActions.Add(1)
	}
	return w.Store.TransitionNode(ctx, tr)
}

// passEnv binds three Deployed machines to active nodes and reconciles
// them through a writeLog.
func passEnv(t *testing.T) (*simEnv, *writeLog, []string) {
	e := newSimEnv(t, func(_ *lifecycle.Site, p *lifecycle.SitePolicy) { p.RequireHWSync = false })
	var sids []string
	for _, h := range []string{"gpu-a1", "gpu-a2", "gpu-a3"} {
		sid, err := e.sim.AddMachine(maassim.HostSpec{}, h, maassim.StatusDeployed)
		must(t, err)
		e.bind(sid, "")
		sids = append(sids, sid)
	}
	w := &writeLog{Store: e.store}
	e.recon = reconcile.New(reconcile.Config{Store: w, Cleaner: maas.Sites{Keys: oneKey{}}, Tasks: boltTasks{e.store}})
	return e, w, sids
}

// A full pass records every node in one transaction and none alone; a
// drift found is recorded before the node is quarantined.
func TestPassRecordsTheSiteInOneTransaction(t *testing.T) {
	e, w, sids := passEnv(t)
	ctx := context.Background()
	e.pass()
	states, err := e.store.ListNodeMaasStates(ctx, lifecycle.MaasStateFilter{SiteID: simSite})
	must(t, err)
	if w.batches.Load() != 1 || w.single.Load() != 0 || len(states) != 3 {
		t.Fatalf("batched writes %d, single writes %d, records %d; want 1, 0, 3", w.batches.Load(), w.single.Load(), len(states))
	}
	for _, s := range states {
		if s.LastReconciledAt == nil || s.LastObservedAt == nil || s.LastStatus != "Deployed" || s.DriftDetected {
			t.Fatalf("record %+v", s)
		}
	}
	must(t, e.sim.ReleaseOutOfBand(ctx, sids[1]))
	e.pass()
	n, err := e.store.GetNode(ctx, "node-"+sids[1])
	must(t, err)
	if n.Status != lifecycle.NodeQuarantined || w.unrecordedActions.Load() != 0 || w.batches.Load() != 2 || w.single.Load() != 0 {
		t.Fatalf("node %s, actions before their record %d, batches %d, single writes %d",
			n.Status, w.unrecordedActions.Load(), w.batches.Load(), w.single.Load())
	}
}

// A pass whose record fails acts on nothing; the next pass does.
func TestPassActsOnlyOnWhatItRecorded(t *testing.T) {
	e, w, sids := passEnv(t)
	ctx := context.Background()
	must(t, e.sim.ReleaseOutOfBand(ctx, sids[0]))
	w.failBatch.Store(true)
	e.pass()
	if n, err := e.store.GetNode(ctx, "node-"+sids[0]); err != nil || n.Status != lifecycle.NodeActive {
		t.Fatalf("after a failed record: %s %v; want active", n.Status, err)
	}
	w.failBatch.Store(false)
	e.pass()
	n, err := e.store.GetNode(ctx, "node-"+sids[0])
	must(t, err)
	st, err := e.store.GetNodeMaasState(ctx, n.ID)
	must(t, err)
	if n.Status != lifecycle.NodeQuarantined || st.DriftRule != lifecycle.DriftReleased || w.unrecordedActions.Load() != 0 {
		t.Fatalf("node %s, drift %s, unrecorded actions %d", n.Status, st.DriftRule, w.unrecordedActions.Load())
	}
}
