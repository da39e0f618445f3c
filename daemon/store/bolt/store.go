package bolt

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
	bbolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// FileName is the store's file inside the state directory.
const FileName = "maas-sidecar.db"

// Options tune Open. The zero value means defaults.
type Options struct {
	// Now is the clock for record timestamps and lease expiry (time.Now).
	Now func() time.Time
	// Logger receives store-level warnings (slog.Default).
	Logger *slog.Logger
	// LockTimeout bounds the wait for the file lock held by another
	// process (1s). A second daemon on one state dir fails instead of hanging.
	LockTimeout time.Duration
	// NoSync skips fsync per commit. For benchmarks only: a crash may lose
	// the last commits.
	NoSync bool
	// OnCommit, when set, is told how long each write transaction took
	// (the store commit latency metric).
	OnCommit func(time.Duration)
}

// Store is lifecycle.Store on a bbolt file.
type Store struct {
	op.Store // the operations, over this file's transactions
	db       *bbolt.DB
	now      func() time.Time
	log      *slog.Logger
	commit   func(time.Duration)
	closed   atomic.Bool
	stats    writeCounter
}

var _ lifecycle.Store = (*Store)(nil)

// Open opens or creates the store file at path. A new file is created at
// the newest schema version (Latest); an older one is copied to
// <path>.pre-v<N>.bak and migrated, each migration logged; a newer one is
// refused with conflict (see lifecycle.SchemaStatus). Another process
// holding the file makes it fail with unavailable after LockTimeout.
func Open(path string, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	db, err := openDB(path, opts, false)
	if err != nil {
		return nil, err
	}
	if _, err := upgrade(db, opts.Logger); err != nil {
		db.Close()
		return nil, err
	}
	// A journal write waits at most this long for others to share its
	// commit (bbolt's default, 10 ms, would add that to every lone write).
	db.MaxBatchDelay = batchDelay
	s := &Store{db: db, now: func() time.Time { return opts.Now().UTC() }, log: opts.Logger, commit: opts.OnCommit}
	s.Store = newOps(s)
	return s, nil
}

// batchDelay is how long a grouped journal write waits for company.
const batchDelay = 2 * time.Millisecond

func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.LockTimeout == 0 {
		o.LockTimeout = time.Second
	}
	return o
}

// ErrLocked is the error (wrapped, unavailable) of an Open that found the
// file locked by another process past Options.LockTimeout.
var ErrLocked = errors.New("locked by another process")

// openDB opens the bbolt file, translating a lock held elsewhere, and
// verifies an existing file before anything writes to it: a truncated or
// damaged file is refused with an error naming it, left as it is.
func openDB(path string, opts Options, readOnly bool) (*bbolt.DB, error) {
	if err := preflight(path); err != nil {
		return nil, damaged(path, err)
	}
	db, err := openBolt(path, opts, readOnly)
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, lifecycle.Wrap(lifecycle.CodeUnavailable, "store.Open", fmt.Errorf("%s is %w", path, ErrLocked))
	}
	if errors.Is(err, bolterrors.ErrVersionMismatch) {
		return nil, lifecycle.Errorf(lifecycle.CodeConflict, "store.Open",
			"store file %s was written by an incompatible bbolt version (its file format is not the one this binary reads), left as it is: run the release that wrote it, or restore a backup into an empty state directory", path)
	}
	if err != nil {
		if errors.Is(err, errUnreadable) || errors.Is(err, bolterrors.ErrInvalid) ||
			errors.Is(err, bolterrors.ErrChecksum) {
			return nil, damaged(path, err)
		}
		return nil, lifecycle.Wrap(lifecycle.CodeInternal, "store.Open", err)
	}
	if err := verify(db); err != nil {
		db.Close()
		return nil, damaged(path, err)
	}
	return db, nil
}

// openBolt is bbolt.Open with a fault in a damaged file recovered.
func openBolt(path string, opts Options, readOnly bool) (db *bbolt.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errUnreadable, r)
		}
	}()
	return bbolt.Open(path, 0o600, &bbolt.Options{Timeout: opts.LockTimeout, NoSync: opts.NoSync, ReadOnly: readOnly})
}

// damaged reports a store file that cannot be used as it is.
func damaged(path string, err error) error {
	return lifecycle.Wrap(lifecycle.CodeInternal, "store.Open", fmt.Errorf(
		"store file %s is damaged, left as it is for inspection (restore a backup into an empty state directory): %w", path, err))
}

// Close closes the file. It is safe to call twice.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.db.Close()
}

// Path returns the file path.
func (s *Store) Path() string { return s.db.Path() }

// Check verifies the file's internal consistency (bbolt's page checks).
func (s *Store) Check() error {
	return s.db.View(func(tx *bbolt.Tx) error {
		for err := range tx.Check() {
			return err
		}
		return nil
	})
}

// begin is op.Ready on this store.
func (s *Store) begin(ctx context.Context, name string) error {
	return op.Ready(ctx, name, s.closed.Load())
}

// update runs fn in a write transaction; errors from fn pass through, others
// are wrapped once under op.
func (s *Store) update(ctx context.Context, op string, fn func(*bbolt.Tx) error) error {
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	start := time.Now()
	err := s.db.Update(s.stats.counted(fn))
	return s.wrote(op, start, err)
}

// batch is update through bbolt's Batch: concurrent callers share one
// write transaction and one fsync (group commit), each answered once it
// is on disk. fn may run more than once (when another member of the
// batch fails, the rest are run again), so it must depend only on what
// it reads in tx.
func (s *Store) batch(ctx context.Context, op string, fn func(*bbolt.Tx) error) error {
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	start := time.Now()
	err := s.db.Batch(s.stats.counted(fn))
	return s.wrote(op, start, err)
}

// wrote reports a write transaction that began at start: its latency to
// Options.OnCommit, and the write in WriteStats when it committed.
func (s *Store) wrote(op string, start time.Time, err error) error {
	if s.commit != nil {
		s.commit(time.Since(start))
	}
	if err == nil {
		s.stats.wrote(op)
	}
	return wrapTx(op, err)
}

func (s *Store) view(ctx context.Context, op string, fn func(*bbolt.Tx) error) error {
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	return wrapTx(op, s.db.View(fn))
}

func wrapTx(op string, err error) error {
	var le *lifecycle.Error
	if err == nil || errors.As(err, &le) {
		return err
	}
	if errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "store is closed")
	}
	if full := noSpace(op, err); full != nil {
		return full
	}
	return lifecycle.Wrap(lifecycle.CodeInternal, op, err)
}

func get(b *bbolt.Bucket, key string, v any) (bool, error) {
	raw := b.Get([]byte(key))
	if raw == nil {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("decode record %q: %w", key, err)
	}
	return true, nil
}

func put(b *bbolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, raw)
}

func u64(n uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return k[:]
}

func notFound(op, kind, id string) error {
	return lifecycle.Errorf(lifecycle.CodeNotFound, op, "%s %q not found", kind, id)
}
