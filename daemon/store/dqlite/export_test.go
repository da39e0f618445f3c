//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
)

// DB exposes the database to the schema tests.
func (s *Store) DB() *sql.DB { return s.db }

// Kill stops the node without handing anything over, as a crash would.
func (n *Node) Kill() error { return n.stop(false) }

// CommitTogether runs fns as one batch of the committer, in order, and
// returns each caller's answer (a function that failed in the batch is
// run alone, as batch's caller does).
func CommitTogether(s *Store, op string, fns ...func(*sql.Tx) error) []error {
	calls := make([]*call, len(fns))
	for i, fn := range fns {
		calls[i] = &call{op: op, fn: fn, done: make(chan error, 1)}
	}
	s.commit(calls)
	errs := make([]error, len(calls))
	for i, c := range calls {
		errs[i] = s.answer(context.Background(), c)
	}
	return errs
}

// HoldWrites takes the store's write lock, as a long transaction in
// progress would; release hands it on.
func HoldWrites(s *Store) (release func()) {
	if ch := s.wlock.acquire(false); ch != nil {
		<-ch
	}
	return s.wlock.release
}

// WaitingWrites counts the writes waiting for the write lock: urgent
// ones and the others.
func WaitingWrites(s *Store) (urgent, others int) {
	s.wlock.mu.Lock()
	defer s.wlock.mu.Unlock()
	return len(s.wlock.waiting[0]), len(s.wlock.waiting[1])
}
