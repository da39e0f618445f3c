//go:build dqlite

package dqlite

import (
	"context"
	"time"
)

// quorumPoll is how often a store that lost its quorum asks whether a
// leader answers again.
const quorumPoll = time.Second

// quorumLost says whether the last operation that reached its deadline
// found no leader and none has succeeded since: reads that may be stale
// then go to the replica at once instead of waiting for the leader.
func (s *Store) quorumLost() bool { return s.lost.Load() }

// QuorumLost says whether the store knows its cluster has no quorum: an
// operation found no leader within Options.Timeout and none answered
// since (the quorum watch asks every quorumPoll). /readyz answers from it
// at once.
func (s *Store) QuorumLost() bool { return s.quorumLost() }

// lostQuorum notes that an operation found no leader within
// Options.Timeout, logging it once, and watches for a leader until one
// answers (watchQuorum): stale reads alone never ask the leader, so
// without the watch a member with nothing to write would answer from its
// snapshot long after the quorum came back.
func (s *Store) lostQuorum(err error) {
	if s.lost.Swap(true) {
		return
	}
	s.log.Error("the store has no quorum: writes fail until a majority of the members is back", "err", err.Error())
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.watchQuorum()
	}()
}

// watchQuorum asks every quorumPoll whether a leader answers, until one
// does (reachable) or the store closes.
func (s *Store) watchQuorum() {
	for s.quorumLost() {
		select {
		case <-s.stop:
			return
		case <-time.After(quorumPoll):
		}
		ctx, cancel := context.WithTimeout(context.Background(), attemptBound)
		_, err := s.node.Leader(ctx)
		cancel()
		if err == nil {
			s.reachable()
		}
	}
}

// reachable notes that the leader answered, logging the recovery once.
func (s *Store) reachable() {
	if s.lost.Swap(false) {
		s.log.Info("the store has its quorum again")
	}
}
