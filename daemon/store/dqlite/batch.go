//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// maxBatch bounds how many write functions share one transaction.
const maxBatch = 256

// call is one write function waiting for the committer (batch).
type call struct {
	op   string
	fn   func(*sql.Tx) error
	done chan error
}

// errAlone answers a call whose function failed inside a shared
// transaction: its caller runs it again in a transaction of its own.
var errAlone = errors.New("run alone")

// batch is update for a write that many callers make at once (the runs'
// journal appends): the committer runs the functions that wait for it in
// one transaction, one Raft commit for all of them, as bbolt's Batch
// shares one fsync. A function that fails is taken out, the others run
// again without it, and its caller runs it alone (update), so its error,
// and nothing it wrote, is its own. fn may therefore run more than once
// and must depend only on what it reads in tx.
func (s *Store) batch(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	c := &call{op: op, fn: fn, done: make(chan error, 1)}
	select {
	case s.queue <- c:
	case <-ctx.Done():
		return lifecycle.Wrap(lifecycle.CodeUnavailable, op, ctx.Err())
	case <-s.stop:
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "store is closed")
	}
	return s.answer(ctx, c)
}

// answer waits for c's answer from the committer and, when it is
// errAlone, runs c's function alone.
func (s *Store) answer(ctx context.Context, c *call) error {
	if err := <-c.done; !errors.Is(err, errAlone) {
		return err
	}
	return s.update(ctx, c.op, c.fn)
}

// startCommitter starts the goroutine that commits the batches; Close
// stops it (s.stop) and waits for it (s.bg).
func (s *Store) startCommitter() {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		for {
			select {
			case <-s.stop:
				return
			case c := <-s.queue:
				s.commit(s.collect(c))
			}
		}
	}()
}

// collect adds to first the calls already waiting, up to maxBatch: those
// that arrived while the last batch committed.
func (s *Store) collect(first *call) []*call {
	calls := []*call{first}
	for len(calls) < maxBatch {
		select {
		case c := <-s.queue:
			calls = append(calls, c)
		default:
			return calls
		}
	}
	return calls
}

// commit runs calls in one transaction and answers each. When one fails
// it is answered errAlone and the rest run again without it; when the
// transaction itself fails (no quorum, a closed store), every call gets
// that error under its own operation's name.
func (s *Store) commit(calls []*call) {
	for len(calls) > 0 {
		failed := -1
		err := s.update(context.Background(), calls[0].op, func(tx *sql.Tx) error {
			defer s.memoize(tx)()
			for i, c := range calls {
				if err := c.fn(tx); err != nil {
					if transient(err) {
						return err // the whole transaction is retried
					}
					failed = i
					return errFailed
				}
			}
			return nil
		})
		if failed < 0 || !errors.Is(err, errFailed) {
			for _, c := range calls {
				c.done <- renamed(err, c.op)
			}
			return
		}
		calls[failed].done <- errAlone
		calls = append(calls[:failed:failed], calls[failed+1:]...) // a new slice: the caller's keeps its order
	}
}

// errFailed ends a shared transaction in which one function failed; it is
// a lifecycle error so that retry hands it back at once.
var errFailed = lifecycle.Errorf(lifecycle.CodeInternal, "store.batch", "a write of the batch failed")

// renamed is err as the operation op reports it: a lifecycle error of the
// shared transaction carries the name of the batch's first operation.
func renamed(err error, op string) error {
	var le *lifecycle.Error
	if !errors.As(err, &le) || le.Op == op {
		return err
	}
	e := *le
	e.Op = op
	return &e
}
