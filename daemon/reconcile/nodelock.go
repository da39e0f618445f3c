package reconcile

import (
	"context"
	"sync"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// nodeLocks serialises the reconciliation of one node: the webhook inbox,
// the events poll and the full resync may hand the same machine over at
// once, and two passes judging one stale snapshot would both act (two
// quarantines, two audit entries).
type nodeLocks struct {
	mu    sync.Mutex
	locks map[string]*nodeLock
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
