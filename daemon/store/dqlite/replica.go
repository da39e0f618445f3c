//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	_ "github.com/mattn/go-sqlite3" // the replica's local SQLite

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// replica is the store's local read replica: a plain SQLite file with the
// store's schema, rebuilt from the cluster every Options.ReplicaEvery (one
// export transaction on the leader, the same code as Export and Import).
// When the cluster has no quorum every dqlite query fails, since all of
// them go to the Raft leader; a read whose context allows stale answers
// (lifecycle.AllowStale: the admin API's GET requests) then runs the same
// SQL on the replica and is marked stale with the snapshot's time. Writes
// never go to it, and the runner and the agent API never read from it.
//
// Cost, for a site of 2,000 machines with their onboarding runs (20
// journal entries each) and 20,000 audit lines (TestReplicaCost): one
// rebuild reads the whole store from the leader in one transaction and
// writes a file of about 13 MB in about 2.5 s on a busy two-core machine;
// rows are streamed, so memory stays at SQLite's page cache (2 MB a
// connection) plus one record. The loop spends at most a tenth of its
// time rebuilding (replicaDuty): at that size a snapshot is at most about
// 30 s old. A new file is built beside the current one and renamed over
// it, so a failed rebuild keeps the last good snapshot.
type replica struct {
	path string
	mu   sync.RWMutex // db and at; readers hold R while they read
	db   *sql.DB      // nil until the first rebuild
	at   time.Time    // when the snapshot was taken
}

// errNoSnapshot: no rebuild has succeeded yet.
var errNoSnapshot = errors.New("no snapshot of the store yet")

// view runs fn in a transaction on the snapshot and returns its time.
func (r *replica) view(fn func(*sql.Tx) error) (time.Time, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.db == nil {
		return time.Time{}, errNoSnapshot
	}
	tx, err := r.db.Begin()
	if err != nil {
		return time.Time{}, err
	}
	defer tx.Rollback()
	return r.at, fn(tx)
}

// swap makes db, taken at at, the snapshot, and closes the previous one
// once its readers are done.
func (r *replica) swap(db *sql.DB, at time.Time) {
	r.mu.Lock()
	old := r.db
	r.db, r.at = db, at
	r.mu.Unlock()
	if old != nil {
		old.Close()
	}
}

func (r *replica) close() {
	r.swap(nil, time.Time{})
}

// refreshReplica rebuilds the replica from one read transaction on the
// leader, bounded by BulkTimeout and not retried (the next tick tries
// again); it returns how long the copy took once the leader answered.
func (s *Store) refreshReplica(ctx context.Context) (time.Duration, error) {
	const op = "store.refreshReplica"
	tmp := s.rep.path + ".new"
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	db, err := sql.Open("sqlite3", "file:"+tmp+"?_journal_mode=OFF&_sync=OFF")
	if err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	at, took, err := s.fill(ctx, db)
	if err == nil {
		err = os.Rename(tmp, s.rep.path)
	}
	if err != nil {
		db.Close()
		os.Remove(tmp)
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	s.rep.swap(db, at)
	return took, nil
}

// fill creates the schema in db and copies every record of the cluster
// into it; it returns when the copy's read began and how long it took.
func (s *Store) fill(parent context.Context, db *sql.DB) (at time.Time, took time.Duration, err error) {
	local, err := db.Begin()
	if err != nil {
		return at, 0, err
	}
	defer local.Rollback()
	for _, m := range migrations {
		if err := execAll(local, m.stmts); err != nil {
			return at, 0, err
		}
	}
	if err := writeVersion(local, Latest(), true); err != nil {
		return at, 0, err
	}
	ctx, cancel := context.WithTimeout(parent, max(s.timeout, BulkTimeout))
	defer cancel()
	var start time.Time
	err = s.tx(ctx, func(tx *sql.Tx) error {
		at, start = s.now(), time.Now()
		for _, k := range lifecycle.RecordKinds {
			if err := exportKind(tx, k, func(r lifecycle.Record) error { return importRecord(local, r) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return at, 0, err
	}
	s.reachable()
	return at, time.Since(start), local.Commit()
}
