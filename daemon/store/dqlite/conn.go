//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"

	dqdriver "github.com/canonical/go-dqlite/driver"
)

// boundedDB opens the database through go-dqlite's driver with every call
// bounded. go-dqlite sends COMMIT and ROLLBACK without a deadline, and
// database/sql hands the statements of a transaction a context without
// one, so on a leader that lost its quorum a COMMIT waits until that
// leader steps down, or forever on a frozen one. Here every call of a
// transaction runs under the context the transaction began with (the
// store's bounded operation context): when it passes, the call's socket
// deadline passes too, the call fails with a broken connection and
// database/sql drops that connection. Every request a connection sends
// to the leader is counted in calls.
func boundedDB(db *sql.DB, database string, calls *LeaderCalls) (*sql.DB, error) {
	d, ok := db.Driver().(*dqdriver.Driver)
	if !ok {
		return nil, fmt.Errorf("driver %T is not go-dqlite's", db.Driver())
	}
	c, err := d.OpenConnector(database)
	if err != nil {
		return nil, err
	}
	db = sql.OpenDB(connector{c, calls})
	// database/sql keeps two idle connections by default; the runs'
	// reads and the committer's writes need many at once, and every
	// connection opened again is a TLS handshake with the leader and a
	// parse of the schema there.
	db.SetMaxIdleConns(maxIdleConns)
	db.SetConnMaxIdleTime(time.Minute)
	return db, nil
}

// maxIdleConns is how many idle connections to the leader the store
// keeps for the next call.
const maxIdleConns = 64

type connector struct {
	driver.Connector
	calls *LeaderCalls
}

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	c.calls.Connects.Add(1)
	return &conn{Conn: dc.(*dqdriver.Conn), calls: c.calls}, nil
}

// conn is a go-dqlite connection whose calls without a deadline take the
// context of the transaction in progress. database/sql uses a connection
// from one goroutine at a time, so tx needs no lock.
type conn struct {
	*dqdriver.Conn
	tx    context.Context // the open transaction's context, nil outside one
	calls *LeaderCalls
}

func (c *conn) bound(ctx context.Context) context.Context {
	if _, ok := ctx.Deadline(); ok || c.tx == nil {
		return ctx
	}
	return c.tx
}

// BeginTx begins a transaction on the leader. A read-only one (pointView)
// sends no BEGIN and no COMMIT: each of its statements is a transaction
// of its own on the leader.
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if opts.ReadOnly {
		c.tx = ctx
		return boundedTx{c: c, none: true}, nil
	}
	c.calls.Statements.Add(1)
	if _, err := c.Conn.BeginTx(ctx, opts); err != nil {
		return nil, err
	}
	c.tx = ctx
	return boundedTx{c: c}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.calls.Statements.Add(1)
	return c.Conn.ExecContext(c.bound(ctx), query, args)
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.calls.Statements.Add(1)
	return c.Conn.QueryContext(c.bound(ctx), query, args)
}

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.calls.Statements.Add(1)
	return c.Conn.PrepareContext(c.bound(ctx), query)
}

// Close releases the connection. It fails only when the leader at the
// other end is already gone (a member stopped first: TLS cannot send its
// close alert), and the connection is released either way, so that is no
// error of the store's: with idle connections kept, a daemon stopping
// after another member used to exit 1 for it.
func (c *conn) Close() error {
	_ = c.Conn.Close()
	return nil
}

// boundedTx ends the transaction with the same statements go-dqlite's Tx
// sends, under the transaction's context; none sends nothing (a read
// without a transaction).
type boundedTx struct {
	c    *conn
	none bool
}

func (t boundedTx) Commit() error { return t.end("COMMIT") }

func (t boundedTx) Rollback() error { return t.end("ROLLBACK") }

func (t boundedTx) end(stmt string) error {
	ctx := t.c.tx
	t.c.tx = nil
	if t.none {
		return nil
	}
	t.c.calls.Statements.Add(1)
	_, err := t.c.Conn.ExecContext(ctx, stmt, nil)
	return err
}
