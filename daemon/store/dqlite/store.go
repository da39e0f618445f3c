//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// Database is the default name of the dqlite database that holds the store.
const Database = "maas-sidecar"

// Store is lifecycle.Store on a dqlite node.
type Store struct {
	op.Store // the operations, over this database's transactions
	node     *Node
	ownNode  bool // Close stops the node too (Open)
	db       *sql.DB
	now      func() time.Time
	timeout  time.Duration
	log      *slog.Logger
	wlock    writeLock  // one local write transaction at a time (writelock.go)
	queue    chan *call // write functions for the committer (batch.go)
	memos    sync.Map   // *sql.Tx to leaseMemo, the shared transactions' (leasememo.go)
	closed   atomic.Bool
	lost     atomic.Bool    // quorum.go
	bg       sync.WaitGroup // the quorum watch (quorum.go)
	stop     chan struct{}  // closed by Close: background work ends
	rep      *replica       // nil without Options.Replica
	stopRep  func()         // stops the replica's rebuilds and waits for them
	calls    *LeaderCalls   // calls.go
}

var _ lifecycle.Store = (*Store)(nil)

// Open starts the dqlite node whose data lives in dir (StartNode), opens
// the store's database on it and brings its schema to Latest. Closing the
// store hands leadership over and stops the node.
func Open(ctx context.Context, dir string, opts Options) (*Store, error) {
	n, err := StartNode(ctx, dir, opts)
	if err != nil {
		return nil, err
	}
	s, err := n.Open(ctx, opts)
	if err != nil {
		n.stop(false)
		return nil, err
	}
	s.ownNode = true
	return s, nil
}

// Open opens a store on the running node: the database Options.Database,
// its schema brought to Latest. Closing this store leaves the node running.
// Options' Address, Join and TLS are not used.
func (n *Node) Open(ctx context.Context, opts Options) (*Store, error) {
	const op = "store.Open"
	if opts.Database == "" {
		opts.Database = Database
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	adb, err := n.openDB(ctx, opts.Database)
	if err != nil {
		return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "open dqlite database %s: %v", opts.Database, err)
	}
	calls := &LeaderCalls{}
	db, err := boundedDB(adb, opts.Database, calls)
	adb.Close()
	if err != nil {
		return nil, lifecycle.Errorf(lifecycle.CodeInternal, op, "open dqlite database %s: %v", opts.Database, err)
	}
	now := opts.Now
	s := &Store{node: n, db: db, now: func() time.Time { return now().UTC() }, timeout: opts.Timeout, log: opts.logger(),
		stopRep: func() {}, stop: make(chan struct{}), queue: make(chan *call), calls: calls}
	s.Store = newOps(s)
	if _, err := s.upgrade(ctx); err != nil {
		db.Close()
		return nil, err
	}
	s.startCommitter()
	if opts.Replica != "" {
		s.startReplica(opts.Replica, opts.ReplicaEvery)
	}
	return s, nil
}

// startReplica starts rebuilding the read replica at path every every
// (DefaultReplicaEvery when not positive).
func (s *Store) startReplica(path string, every time.Duration) {
	if every <= 0 {
		every = DefaultReplicaEvery
	}
	s.rep = &replica{path: path}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.runReplica(ctx, every)
	}()
	s.stopRep = func() {
		cancel()
		<-done
		s.rep.close()
	}
}

// Node is the node the store runs on.
func (s *Store) Node() *Node { return s.node }

// Close closes the database and, for a store from Open, hands leadership
// over and stops the node. It is safe to call twice.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	close(s.stop)
	s.bg.Wait()
	s.stopRep()
	err := s.db.Close()
	if s.ownNode {
		err = errors.Join(err, s.node.Close())
	}
	return err
}
