//go:build dqlite

package dqlite

import (
	"context"
	"sync"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// lostBound bounds an ordinary operation while the store knows its quorum
// is lost: the quorum watch notices a leader again within quorumPoll and
// one attempt, so a caller (an agent, the admin API) learns at once that
// the store cannot answer instead of waiting Options.Timeout each time.
const lostBound = attemptBound

// bound is how long one operation may take: its deadline, the timeout
// it names in its error, and whether it is an ordinary operation (bound
// by Options.Timeout), whose passing deadline means the quorum is lost.
type bound struct {
	until    time.Time
	timeout  time.Duration
	ordinary bool
}

// boundOf starts the bound of an operation allowed timeout: lostBound
// instead while the quorum is known to be lost, for an ordinary one.
func (s *Store) boundOf(timeout time.Duration) bound {
	b := bound{timeout: timeout, ordinary: timeout == s.timeout}
	if b.ordinary && s.quorumLost() {
		b.timeout = min(timeout, lostBound)
	}
	b.until = time.Now().Add(b.timeout)
	return b
}

// writeLock lets one local write transaction run at a time. Waiters take
// it in arrival order, urgent ones (lease writes, urgent) before every
// other: a renewal waits for the transaction in progress, never for the
// writes queued behind it.
type writeLock struct {
	mu      sync.Mutex
	held    bool
	waiting [2][]chan struct{} // [0] urgent, [1] the others; closed when granted
}

// acquire returns nil with the lock taken, or a channel closed when it is
// handed to the caller.
func (w *writeLock) acquire(urgent bool) chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.held {
		w.held = true
		return nil
	}
	ch, l := make(chan struct{}), lane(urgent)
	w.waiting[l] = append(w.waiting[l], ch)
	return ch
}

// abandon withdraws a wait that ended; false when the lock was handed over
// meanwhile (the caller holds it and must release it).
func (w *writeLock) abandon(urgent bool, ch chan struct{}) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	q := w.waiting[lane(urgent)]
	for i, c := range q {
		if c == ch {
			w.waiting[lane(urgent)] = append(q[:i:i], q[i+1:]...)
			return true
		}
	}
	return false
}

// release hands the lock to the first urgent waiter, else the first other.
func (w *writeLock) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, q := range w.waiting {
		if len(q) > 0 {
			w.waiting[i] = q[1:]
			close(q[0])
			return
		}
	}
	w.held = false
}

func lane(urgent bool) int {
	if urgent {
		return 0
	}
	return 1
}

// lockWrites takes the store's write lock, one local write transaction at
// a time, waiting at most until b's deadline: a write queued behind
// writes that wait for a leader fails unavailable within its own bound.
// A context marked urgent (lease writes) goes ahead of the others.
func (s *Store) lockWrites(ctx context.Context, op string, b bound) error {
	u := isUrgent(ctx)
	ch := s.wlock.acquire(u)
	if ch == nil {
		return nil
	}
	t := time.NewTimer(time.Until(b.until))
	defer t.Stop()
	var err error
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		err = lifecycle.Wrap(lifecycle.CodeUnavailable, op, ctx.Err())
	case <-s.stop:
		err = lifecycle.Errorf(lifecycle.CodeUnavailable, op, "store is closed")
	case <-t.C:
		err = lifecycle.Errorf(lifecycle.CodeUnavailable, op, "%s: the writes ahead of this one did not finish", noQuorum(b.timeout))
	}
	if !s.wlock.abandon(u, ch) {
		s.wlock.release()
	}
	return err
}

func (s *Store) unlockWrites() { s.wlock.release() }
