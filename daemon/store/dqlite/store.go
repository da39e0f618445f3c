//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/canonical/go-dqlite/app"
	"github.com/canonical/go-dqlite/client"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Database is the name of the dqlite database that holds the store.
const Database = "maas-sidecar"

// Options configure Open.
type Options struct {
	// Address is this node's Raft address, host:port (required).
	Address string
	// Join lists the addresses of existing members to join; empty forms a
	// new cluster (or reopens this node's own).
	Join []string
	// Now is the clock for record timestamps and lease expiry (time.Now).
	Now func() time.Time
	// Logger receives store and dqlite messages (slog.Default).
	Logger *slog.Logger
}

// Store is lifecycle.Store on a dqlite node.
type Store struct {
	app    *app.App
	db     *sql.DB
	now    func() time.Time
	log    *slog.Logger
	wmu    sync.Mutex // one local write transaction at a time
	closed atomic.Bool
}

var _ lifecycle.Store = (*Store)(nil)

// Open starts the dqlite node whose data lives in dir, waits until it is
// ready, opens the store's database and brings its schema to Latest.
func Open(ctx context.Context, dir string, opts Options) (*Store, error) {
	const op = "store.Open"
	if opts.Address == "" {
		return nil, lifecycle.Invalid(op, "address", "a dqlite node needs an address")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	a, err := app.New(dir, app.WithAddress(opts.Address), app.WithCluster(opts.Join), app.WithLogFunc(logFunc(opts.Logger)))
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeUnavailable, op, err)
	}
	s := &Store{app: a, now: func() time.Time { return opts.Now().UTC() }, log: opts.Logger}
	if err := s.start(ctx); err != nil {
		a.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) start(ctx context.Context) error {
	const op = "store.Open"
	if err := s.app.Ready(ctx); err != nil {
		return lifecycle.Wrap(lifecycle.CodeUnavailable, op, err)
	}
	db, err := s.app.Open(ctx, Database)
	if err != nil {
		return lifecycle.Wrap(lifecycle.CodeUnavailable, op, err)
	}
	s.db = db
	if _, err := s.upgrade(ctx); err != nil {
		db.Close()
		return err
	}
	return nil
}

func logFunc(l *slog.Logger) client.LogFunc {
	return func(lvl client.LogLevel, format string, a ...any) {
		if lvl >= client.LogWarn {
			l.Warn("dqlite: " + fmt.Sprintf(format, a...))
		}
	}
}

// Close closes the database and stops the node. It is safe to call twice.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	dbErr := s.db.Close()
	return errors.Join(dbErr, s.app.Close())
}

func (s *Store) begin(ctx context.Context, op string) error {
	if s.closed.Load() {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "store is closed")
	}
	if err := ctx.Err(); err != nil {
		return lifecycle.Wrap(lifecycle.CodeUnavailable, op, err)
	}
	return nil
}

// update runs fn in one write transaction, retried while the database is
// busy (another member's transaction, a leader change); errors from fn
// pass through, others are wrapped once under op.
func (s *Store) update(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	var err error
	for attempt := 0; attempt < 50; attempt++ {
		if err = s.tx(ctx, fn); err == nil || !busy(err) {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
	}
	return wrapTx(op, err)
}

func (s *Store) view(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	if err := s.begin(ctx, op); err != nil {
		return err
	}
	return wrapTx(op, s.tx(ctx, fn))
}

func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func busy(err error) bool {
	var le *lifecycle.Error
	if errors.As(err, &le) {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "database is locked") || strings.Contains(msg, "busy")
}

func wrapTx(op string, err error) error {
	var le *lifecycle.Error
	if err == nil || errors.As(err, &le) {
		return err
	}
	if errors.Is(err, sql.ErrConnDone) || strings.Contains(err.Error(), "database is closed") {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "store is closed")
	}
	return lifecycle.Wrap(lifecycle.CodeInternal, op, err)
}

// get decodes the data column of the row query returns into v; false when
// there is no row.
func get(tx *sql.Tx, v any, query string, args ...any) (bool, error) {
	var raw string
	err := tx.QueryRow(query, args...).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return true, fmt.Errorf("decode record: %w", err)
	}
	return true, nil
}

// list decodes the data column of every row query returns, in order.
func list[T any](tx *sql.Tx, query string, args ...any) ([]T, error) {
	rows, err := tx.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return nil, err
		}
		var v T
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			return nil, fmt.Errorf("decode record: %w", err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// exists reports whether query returns a row.
func exists(tx *sql.Tx, query string, args ...any) (bool, error) {
	var one int
	err := tx.QueryRow(query, args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

func js(v any) (string, error) {
	raw, err := json.Marshal(v)
	return string(raw), err
}

func notFound(op, kind, id string) error {
	return lifecycle.Errorf(lifecycle.CodeNotFound, op, "%s %q not found", kind, id)
}
