package bolt

import (
	"maps"
	"sync"
	"sync/atomic"

	bbolt "go.etcd.io/bbolt"
)

// WriteStats counts a store's writes since Open. Writes is the write
// operations that committed, by operation name in ByOp; Commits is the
// write transactions committed, each one fsync round (bbolt syncs the
// data pages, then the meta page). Writes per commit above one is the
// group commit at work: concurrent callers of a shared write (op's
// Batch) answered by one transaction.
type WriteStats struct {
	Writes, Commits uint64
	ByOp            map[string]uint64
}

// WriteStats returns the counts so far.
func (s *Store) WriteStats() WriteStats {
	s.stats.mu.Lock()
	defer s.stats.mu.Unlock()
	return WriteStats{Writes: s.stats.writes, Commits: s.stats.commits.Load(), ByOp: maps.Clone(s.stats.byOp)}
}

// writeCounter keeps WriteStats. Commits are told apart by transaction
// id: a grouped commit runs many callers' functions in one transaction.
type writeCounter struct {
	mu      sync.Mutex
	writes  uint64
	byOp    map[string]uint64
	commits atomic.Uint64
	lastTx  atomic.Uint64
}

// wrote counts one committed write operation.
func (c *writeCounter) wrote(op string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byOp == nil {
		c.byOp = map[string]uint64{}
	}
	c.writes++
	c.byOp[op]++
}

// counted is fn with its transaction's commit counted once.
func (c *writeCounter) counted(fn func(*bbolt.Tx) error) func(*bbolt.Tx) error {
	return func(tx *bbolt.Tx) error {
		id := uint64(tx.ID()) // a write transaction's id is its own, rising
		tx.OnCommit(func() {
			for last := c.lastTx.Load(); id > last; last = c.lastTx.Load() {
				if c.lastTx.CompareAndSwap(last, id) {
					c.commits.Add(1)
					return
				}
			}
		})
		return fn(tx)
	}
}
