//go:build dqlite

package dqlite

import "database/sql"

// DB exposes the database to the schema tests.
func (s *Store) DB() *sql.DB { return s.db }
