//go:build dqlite

package dqlite

// quorumLost says whether the last operation that reached its deadline
// found no leader and none has succeeded since: reads that may be stale
// then go to the replica at once instead of waiting for the leader.
func (s *Store) quorumLost() bool { return s.lost.Load() }

// lostQuorum notes that an operation found no leader within
// Options.Timeout, logging it once.
func (s *Store) lostQuorum(err error) {
	if !s.lost.Swap(true) {
		s.log.Error("the store has no quorum: writes fail until a majority of the members is back", "err", err.Error())
	}
}

// reachable notes that the leader answered, logging the recovery once.
func (s *Store) reachable() {
	if s.lost.Swap(false) {
		s.log.Info("the store has its quorum again")
	}
}
