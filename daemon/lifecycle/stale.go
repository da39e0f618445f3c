package lifecycle

import (
	"context"
	"sync"
	"time"
)

// StaleRead records that a read was answered from a stale copy of the
// store. A caller that can show a stale answer (the admin API's GET
// requests) puts one in the context with AllowStale; a store that cannot
// reach its primary (a replicated store without quorum) may then answer
// from its local snapshot and say so with MarkStale. Callers that act on
// what they read (the runner, the agent API) never allow it, so they
// always read fresh data or fail unavailable. Safe for concurrent use.
type StaleRead struct {
	mu    sync.Mutex
	asOf  time.Time
	stale bool
}

type staleKey struct{}

// AllowStale returns a context under which reads may be answered from a
// stale snapshot, and the record that says whether one was.
func AllowStale(ctx context.Context) (context.Context, *StaleRead) {
	r := &StaleRead{}
	return context.WithValue(ctx, staleKey{}, r), r
}

// StaleAllowed says whether ctx accepts a stale answer.
func StaleAllowed(ctx context.Context) bool {
	_, ok := ctx.Value(staleKey{}).(*StaleRead)
	return ok
}

// MarkStale notes that a read under ctx was answered from a snapshot
// taken at asOf; the oldest snapshot of the request wins. It does nothing
// when ctx does not allow stale reads.
func MarkStale(ctx context.Context, asOf time.Time) {
	r, ok := ctx.Value(staleKey{}).(*StaleRead)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stale || asOf.Before(r.asOf) {
		r.asOf = asOf
	}
	r.stale = true
}

// AsOf returns when the snapshot behind a stale answer was taken, and
// whether any answer was stale.
func (r *StaleRead) AsOf() (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.asOf, r.stale
}

// StaleAnswered says whether a read under ctx was answered from a
// snapshot, and when that was taken.
func StaleAnswered(ctx context.Context) (time.Time, bool) {
	r, ok := ctx.Value(staleKey{}).(*StaleRead)
	if !ok {
		return time.Time{}, false
	}
	return r.AsOf()
}
