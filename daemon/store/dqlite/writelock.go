//go:build dqlite

package dqlite

import (
	"context"
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

// lockWrites takes the store's write lock, one local write transaction at
// a time, waiting at most until b's deadline: a write queued behind
// writes that wait for a leader fails unavailable within its own bound.
func (s *Store) lockWrites(ctx context.Context, op string, b bound) error {
	t := time.NewTimer(time.Until(b.until))
	defer t.Stop()
	select {
	case s.wlock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return lifecycle.Wrap(lifecycle.CodeUnavailable, op, ctx.Err())
	case <-s.stop:
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "store is closed")
	case <-t.C:
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "%s: the writes ahead of this one did not finish", noQuorum(b.timeout))
	}
}

func (s *Store) unlockWrites() { <-s.wlock }
