//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// staleAfter bounds how long a read that may be stale waits for the
// leader before it answers from the replica, while the store does not
// know the quorum is lost yet.
const staleAfter = 2 * time.Second

// replicaRetry spaces rebuilds after a failed one.
const replicaRetry = 2 * time.Second

// replicaDuty bounds the rebuild loop to one part in replicaDuty of its
// time: after a rebuild that took d it waits at least d*(replicaDuty-1),
// so a large store is rebuilt less often instead of keeping a core busy.
const replicaDuty = 10

// runReplica rebuilds the replica every Options.ReplicaEvery, or nine
// times the last rebuild's duration when that is longer (replicaDuty),
// and every replicaRetry after a failure, until ctx is done; Close
// cancels it and waits for it.
func (s *Store) runReplica(ctx context.Context, every time.Duration) {
	failing := false
	for {
		took, err := s.refreshReplica(ctx)
		wait := max(every, (replicaDuty-1)*took)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if !failing {
				s.log.Warn("store read replica not refreshed; reads that may be stale keep the last snapshot", "err", err.Error())
			}
			failing, wait = true, replicaRetry
		} else if failing {
			s.log.Info("store read replica refreshed again")
			failing = false
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// view runs fn in one read transaction on the leader, retried as
// update's. When ctx allows a stale answer (lifecycle.AllowStale) and the
// leader does not answer (the store knows the quorum is lost, or the
// leader did not answer within staleAfter), fn runs on the replica's
// snapshot instead and the answer is marked stale; without a snapshot
// the leader's error stands.
func (s *Store) view(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	if s.rep == nil || !lifecycle.StaleAllowed(ctx) {
		return s.retry(ctx, s.boundOf(s.timeout), op, fn)
	}
	var err error
	if !s.quorumLost() {
		err = s.retry(ctx, s.boundOf(min(s.timeout, staleAfter)), op, fn)
		if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable || s.closed.Load() {
			return err
		}
	}
	at, rerr := s.rep.view(fn)
	var le *lifecycle.Error
	switch {
	case rerr == nil || errors.As(rerr, &le): // the snapshot's answer, not found included
		lifecycle.MarkStale(ctx, at)
		return rerr
	case err != nil:
		return err
	}
	return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "%s; the read replica cannot answer either: %v", noQuorum(s.timeout), rerr)
}

// noQuorum is the message of an operation that found no leader: what
// happened and what the operator should do.
func noQuorum(timeout time.Duration) string {
	return "the store has no quorum: no dqlite leader answered within " + timeout.String() +
		" (a majority of the cluster's members is down or cut off); writes are refused until enough members are back:" +
		" start the stopped members (maas-sidecar cluster status lists them). Reads of the admin API answer from a stale snapshot meanwhile"
}
