//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
)

// RawDB opens the store's database on the node as a client of its own,
// outside any Store (a member that takes a write lock and freezes).
func (n *Node) RawDB(ctx context.Context) (*sql.DB, error) { return n.app.Open(ctx, Database) }
