package ipmi

import (
	"context"
	"sync"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// bmcLocks gives each BMC one lock, so two operations never race on it. The
// map keeps one small channel per BMC ever seen, bounded by the fleet.
type bmcLocks struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

// acquire waits for the BMC's lock or for ctx; the caller must call release.
func (l *bmcLocks) acquire(ctx context.Context, key string) (release func(), err error) {
	l.mu.Lock()
	if l.m == nil {
		l.m = make(map[string]chan struct{})
	}
	ch, ok := l.m[key]
	if !ok {
		ch = make(chan struct{}, 1)
		l.m[key] = ch
	}
	l.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, lifecycle.Wrap(lifecycle.CodeUnavailable, "ipmi: wait for BMC "+key, ctx.Err())
	}
}
