package reconcile

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// nodeLocks serialises the reconciliation of one node: the webhook inbox,
// the events poll and the full resync may hand the same machine over at
// once, and two passes judging one stale snapshot would both act (two
// quarantines, two audit entries).
type nodeLocks struct {
	mu    sync.Mutex
	locks map[string]*nodeLock
	// epoch counts actions taken; acted holds, per node, the epoch of
	// its last action (in memory: a read in flight does not outlive a
	// restart either).
	epoch atomic.Uint64
	acted sync.Map // node id -> uint64
}

type nodeLock struct {
	sync.Mutex
	users int
}

// lock takes node id's lock and returns its release.
func (l *nodeLocks) lock(id string) func() {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = make(map[string]*nodeLock)
	}
	k, ok := l.locks[id]
	if !ok {
		k = &nodeLock{}
		l.locks[id] = k
	}
	k.users++
	l.mu.Unlock()
	k.Lock()
	return func() {
		k.Unlock()
		l.mu.Lock()
		if k.users--; k.users == 0 {
			delete(l.locks, id)
		}
		l.mu.Unlock()
	}
}

// fresh re-reads n under its lock, so the verdict is taken on the node as
// it is now, not as the pass listed it.
func (r *Reconciler) fresh(ctx context.Context, n lifecycle.Node) (lifecycle.Node, error) {
	return r.cfg.Store.GetNode(ctx, n.ID)
}

// Epoch is the action epoch now. The change feed takes it before reading
// a machine from MAAS and passes it in the Observation: an observation
// read before the reconciler last acted on the node shows MAAS as it was
// before the action (a second release of a machine already released).
func (r *Reconciler) Epoch() uint64 { return r.nodes.epoch.Load() + 1 }

// actedOn records an action on node id; call it once the action returned.
func (l *nodeLocks) actedOn(id string) {
	l.acted.Store(id, l.epoch.Add(1)+1)
}

// stale reports whether o was read before the last action on node id.
func (l *nodeLocks) stale(id string, o Observation) bool {
	v, ok := l.acted.Load(id)
	return ok && o.Epoch != 0 && o.Epoch < v.(uint64)
}
