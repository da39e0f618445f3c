package maassim

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jonboulle/clockwork"
)

// MirrorOptions tune MirrorPostgres. Zero values mean the defaults in
// brackets.
type MirrorOptions struct {
	// MinBackoff and MaxBackoff bound the doubling delay between
	// reconnects [100ms, 5s].
	MinBackoff, MaxBackoff time.Duration
	// Clock measures the backoff [the real clock; not Options.Clock,
	// which is simulated time].
	Clock clockwork.Clock
}

func (o MirrorOptions) withDefaults() MirrorOptions {
	if o.MinBackoff <= 0 {
		o.MinBackoff = 100 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(5*time.Second, o.MinBackoff)
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	return o
}

// Mirror keeps a PostgreSQL database in step with a Sim's machines and
// events (MirrorPostgres).
type Mirror struct {
	sim  *Sim
	cfg  *pgx.ConnConfig
	opts MirrorOptions
	log  *slog.Logger
	wake chan struct{}
	done chan struct{}

	mu    sync.Mutex // after Sim.mu
	dirty map[string]bool
	order []string        // dirty system ids, first change first
	links map[string]bool // dirty system ids whose interfaces' links changed

	lastEvent int // the newest event id written; writer-owned
}

// MirrorPostgres mirrors s into the database at dsn, as MAAS's region
// database: it creates maasserver_node, maasserver_event and MAAS's
// notification triggers (idempotently, so a restarted simulator reuses
// the database), writes every machine with the triggers disabled, and
// returns. A goroutine, ending with ctx, then writes every machine change
// and new event in order, coalesced per machine, so that PostgreSQL
// itself sends machine_create, machine_update, machine_delete and
// event_create. The simulator never waits on the database.
//
// A first connect or schema failure is returned. Later failures are
// logged and retried with backoff; changes made meanwhile are not
// replayed: the reconnect brings the tables back in step with the
// triggers disabled, as a MAAS whose database was down changed nothing
// and notified nothing. The role must own the tables (or be a superuser).
// One simulator per database: a resync deletes machine rows it does not
// know.
func (s *Sim) MirrorPostgres(ctx context.Context, dsn string, opts MirrorOptions) (*Mirror, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("maassim: postgres mirror: %w", err)
	}
	m := &Mirror{sim: s, cfg: cfg, opts: opts.withDefaults(), log: s.opts.Logger,
		wake: make(chan struct{}, 1), done: make(chan struct{}), dirty: map[string]bool{}, links: map[string]bool{}}
	s.addMirror(m)
	conn, err := m.open(ctx)
	if err != nil {
		s.removeMirror(m)
		return nil, err
	}
	go m.run(ctx, conn)
	return m, nil
}

// Done is closed once the mirror has stopped (its context ended) and
// closed its connection.
func (m *Mirror) Done() <-chan struct{} { return m.done }

func (m *Mirror) run(ctx context.Context, conn *pgx.Conn) {
	defer close(m.done)
	defer m.sim.removeMirror(m)
	for conn != nil {
		err := m.serve(ctx, conn)
		closeConn(conn)
		if ctx.Err() != nil {
			return
		}
		m.log.Warn("maassim: postgres mirror lost its database; reconnecting", "err", err)
		conn = m.reconnect(ctx)
	}
}

// serve writes queued changes until ctx ends or a write fails.
func (m *Mirror) serve(ctx context.Context, conn *pgx.Conn) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-m.wake:
		}
		if err := m.flush(ctx, conn); err != nil {
			return err
		}
	}
}

// reconnect retries open with a doubling delay until it succeeds (nil
// when ctx ends first).
func (m *Mirror) reconnect(ctx context.Context) *pgx.Conn {
	delay := m.opts.MinBackoff
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-m.opts.Clock.After(delay):
		}
		conn, err := m.open(ctx)
		if err == nil {
			m.log.Info("maassim: postgres mirror reconnected")
			return conn
		}
		m.log.Warn("maassim: postgres mirror reconnect failed", "err", err)
		delay = min(2*delay, m.opts.MaxBackoff)
	}
}

// open connects, creates the schema and resynchronises.
func (m *Mirror) open(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, m.cfg)
	if err != nil {
		return nil, fmt.Errorf("maassim: postgres mirror: %w", err)
	}
	if err := createSchema(ctx, conn); err != nil {
		closeConn(conn)
		return nil, err
	}
	if err := m.resync(ctx, conn); err != nil {
		closeConn(conn)
		return nil, err
	}
	return conn, nil
}

func closeConn(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = conn.Close(ctx)
}

// mirrorLock serialises schema creation between mirrors on one database.
const mirrorLock = 0x6d61617373696d // "maassim"

func createSchema(ctx context.Context, conn *pgx.Conn) error {
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(mirrorLock)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, mirrorSchema+nodeTriggers())
		return err
	})
	if err != nil {
		return fmt.Errorf("maassim: postgres mirror: create schema: %w", err)
	}
	return nil
}
