//go:build dqlite

package dqlite

import "sync/atomic"

// LeaderCalls counts what the store's connections send to the dqlite
// leader: every request (BEGIN, each statement, COMMIT and ROLLBACK; one
// network round trip each), every write transaction committed (one
// Raft log entry each), and every connection opened to it (a TLS
// handshake between members). The onboarding benchmark reports the
// first two per stage transition.
type LeaderCalls struct {
	Statements atomic.Uint64
	Commits    atomic.Uint64
	Connects   atomic.Uint64
}

// Calls returns the requests and commits this store has sent to the
// leader since it opened.
func (s *Store) Calls() (statements, commits uint64) {
	return s.calls.Statements.Load(), s.calls.Commits.Load()
}

// Connects returns how many connections this store has opened to the
// leader since it opened.
func (s *Store) Connects() uint64 { return s.calls.Connects.Load() }
