//go:build dqlite

package dqlite

import (
	"context"
	"crypto/tls"
	"database/sql"
	"net"
)

// RawDB opens the store's database on the node as a client of its own,
// outside any Store (a member that takes a write lock and freezes).
func (n *Node) RawDB(ctx context.Context) (*sql.DB, error) { return n.app.Open(ctx, Database) }

// BoundedDial exposes the members' dial to the tests.
func BoundedDial(t *tls.Config) func(context.Context, string) (net.Conn, error) {
	return boundedDial(t)
}

// DialBound is boundedDial's bound.
const DialBound = dialBound
