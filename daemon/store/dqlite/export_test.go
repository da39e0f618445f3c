//go:build dqlite

package dqlite

import "database/sql"

// DB exposes the database to the schema tests.
func (s *Store) DB() *sql.DB { return s.db }

// Kill stops the node without handing anything over, as a crash would.
func (n *Node) Kill() error { return n.stop(false) }
