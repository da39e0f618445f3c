//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"time"

	dqdriver "github.com/canonical/go-dqlite/driver"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// retryPolicy spaces the attempts of a transaction that met a transient
// error.
var retryPolicy = backoff.Policy{Initial: 10 * time.Millisecond, Max: 500 * time.Millisecond}

// update runs fn in one write transaction, retried on transient errors;
// errors from fn pass through, others are wrapped once under op. The
// transaction first checks the store's schema version (writeGuard).
func (s *Store) update(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	return s.updateWithin(ctx, op, s.timeout, func(tx *sql.Tx) error {
		if err := writeGuard(tx, op); err != nil {
			return err
		}
		return fn(tx)
	})
}

// updateWithin is update bounded by timeout instead of Options.Timeout.
// The bound covers the wait for the write lock too (lockWrites): without
// quorum each write holds it for the whole bound, and writes queued
// behind it would otherwise wait one bound per write ahead of them.
func (s *Store) updateWithin(ctx context.Context, op string, timeout time.Duration, fn func(*sql.Tx) error) error {
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	b := s.boundOf(timeout)
	if err := s.lockWrites(ctx, op, b); err != nil {
		return err
	}
	defer s.unlockWrites()
	err := s.retry(ctx, b, op, fn)
	if err == nil {
		s.calls.Commits.Add(1)
	}
	return err
}

// begin is op.Ready on this store.
func (s *Store) begin(ctx context.Context, name string) error {
	return op.Ready(ctx, name, s.closed.Load())
}

// retry runs fn in a transaction until it succeeds, fails for good, or
// b's deadline passes: then the cluster had no usable leader (a lost quorum, an
// election that did not end) and the error is unavailable. Every call to
// the leader, COMMIT included, is bounded by the same deadline (conn.go),
// so retry returns within timeout and a little.
//
// A transaction is retried whole. When the leader changed during COMMIT,
// or the deadline cut the COMMIT short, its outcome is unknown, so a
// retried write may meet its own first attempt: the store's writes check
// their preconditions inside the transaction, so that attempt answers as
// for a repeated request.
func (s *Store) retry(parent context.Context, b bound, op string, fn func(*sql.Tx) error) error {
	ctx, cancel := context.WithDeadline(parent, b.until)
	defer cancel()
	wait := backoff.Sequence{Policy: retryPolicy}
	var locked time.Time // since when every attempt met a busy database
	for {
		err := s.tx(ctx, fn)
		locked = s.unlock(ctx, err, locked)
		var le *lifecycle.Error
		switch {
		case err == nil || errors.As(err, &le):
			s.reachable()
			return err
		case s.closed.Load():
			return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "store is closed")
		case parent.Err() != nil:
			return lifecycle.Wrap(lifecycle.CodeUnavailable, op, parent.Err())
		case !transient(err) && ctx.Err() == nil:
			return lifecycle.Wrap(lifecycle.CodeInternal, op, err)
		}
		select {
		case <-ctx.Done():
			return s.timedOut(parent, b, op, err)
		case <-time.After(wait.Next()):
		}
	}
}

// timedOut is the error of an operation whose bound passed after err:
// the caller's own end, or no leader within the bound (an ordinary
// operation's notes the lost quorum).
func (s *Store) timedOut(parent context.Context, b bound, op string, err error) error {
	if parent.Err() != nil {
		return lifecycle.Wrap(lifecycle.CodeUnavailable, op, parent.Err())
	}
	if b.ordinary {
		s.lostQuorum(err)
	}
	return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "%s: %v", noQuorum(b.timeout), err)
}

// tx runs fn in a transaction; under a context from pointView, in none
// (conn.BeginTx).
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	var opts *sql.TxOptions
	if ctx.Value(pointKey{}) != nil {
		opts = &sql.TxOptions{ReadOnly: true}
	}
	tx, err := s.db.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// lockBound is how long writes may meet a busy database before the write
// lock counts as held by a stalled member (Node.moveLeadership). The
// store's own transactions hold it for milliseconds.
const lockBound = 3 * time.Second

// unlock tracks since when attempts met a busy database (zero: the last
// one did not) and, once that passes lockBound, has the leadership moved
// so that the stalled transaction holding the lock is dropped; at most
// once per lockBound for this node.
func (s *Store) unlock(ctx context.Context, err error, since time.Time) time.Time {
	if !busy(err) {
		return time.Time{}
	}
	now := time.Now()
	if since.IsZero() {
		return now
	}
	if now.Sub(since) < min(lockBound, s.timeout/2) || !s.node.lockMoveDue(now) {
		return since
	}
	if merr := s.node.moveLeadership(ctx); merr != nil {
		s.log.Warn("dqlite write lock held by a stalled transaction; leadership not moved", "err", merr)
	}
	return time.Time{}
}

// busy says whether err is the leader's "database is locked": another
// client holds the write transaction.
func busy(err error) bool {
	var de dqdriver.Error
	return errors.As(err, &de) && de.Code&0xff == dqdriver.ErrBusy
}

// transient says whether err is one a retry of the whole transaction can
// cure: the connection to the leader broke or leadership moved (the
// driver reports both as driver.ErrBadConn), no leader is known yet, or
// the database is busy with another member's transaction. Errors of the
// store's own checks (lifecycle errors) never are.
func transient(err error) bool {
	var le *lifecycle.Error
	if errors.As(err, &le) {
		return false
	}
	if busy(err) {
		return true
	}
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, dqdriver.ErrNoAvailableLeader)
}
