//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// Latest is the newest schema version this binary knows.
func Latest() int { return migrations[len(migrations)-1].Version }

// SchemaStatus reports the database's schema version and the migrations
// Open would run on it (none once Open returned).
func (s *Store) SchemaStatus(ctx context.Context) (lifecycle.SchemaStatus, error) {
	st := lifecycle.SchemaStatus{Latest: Latest(), Pending: []lifecycle.Migration{}}
	err := s.view(ctx, "store.SchemaStatus", func(tx *sql.Tx) (err error) {
		st.Version, _, err = readVersion(tx)
		return err
	})
	for _, m := range pending(st.Version) {
		st.Pending = append(st.Pending, m.Migration)
	}
	return st, err
}

// upgrade creates a new database at Latest in one transaction, or runs
// the pending migrations of an older one, each in its own transaction
// that re-reads the version (another member may be upgrading the same
// database) and records its own, bounded as a bulk operation (a step may
// rewrite every run); a newer database is refused untouched.
func (s *Store) upgrade(ctx context.Context) (lifecycle.MigrationReport, error) {
	const op = "store.Open"
	var rep lifecycle.MigrationReport
	var fresh bool
	err := s.updateWithin(ctx, op, s.timeout, func(tx *sql.Tx) (err error) {
		rep.From, fresh, err = readVersion(tx)
		if err != nil || !fresh {
			return err
		}
		for _, m := range migrations {
			if err := execAll(tx, m.stmts); err != nil {
				return err
			}
		}
		rep.From = Latest()
		return writeVersion(tx, Latest(), true)
	})
	rep.To, rep.Ran = rep.From, []lifecycle.AppliedMigration{}
	if err != nil {
		return rep, err
	}
	if rep.From > Latest() {
		return rep, lifecycle.Errorf(lifecycle.CodeConflict, op,
			"the dqlite store is at schema version %d but this binary knows versions up to %d: a newer release wrote it; run that release",
			rep.From, Latest())
	}
	for _, m := range pending(rep.From) {
		ran := false
		err := s.updateWithin(ctx, op, BulkTimeout, func(tx *sql.Tx) error {
			// another member may have run it since the version was read
			v, _, err := readVersion(tx)
			if ran = v < m.Version; err != nil || !ran {
				return err
			}
			if err := execAll(tx, m.stmts); err != nil {
				return err
			}
			return writeVersion(tx, m.Version, false)
		})
		if err != nil {
			return rep, err
		}
		rep.To = m.Version
		if ran {
			s.log.Info("store schema migrated", "version", m.Version, "migration", m.Name)
			rep.Ran = append(rep.Ran, lifecycle.AppliedMigration{Migration: m.Migration})
		}
	}
	return rep, nil
}

// pending returns the migrations a database at version from still needs.
func pending(from int) []migration {
	return op.Pending(migrations, from, func(m migration) int { return m.Version })
}

func execAll(tx *sql.Tx, stmts []string) error {
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// readVersion returns the recorded version; fresh when the database has
// no schema_version table (nothing was ever created in it).
func readVersion(tx *sql.Tx) (v int, fresh bool, err error) {
	var n int
	err = tx.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`).Scan(&n)
	if err != nil || n == 0 {
		return 0, err == nil, err
	}
	err = tx.QueryRow(`SELECT version FROM schema_version WHERE id = 1`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return v, false, err
}

func writeVersion(tx *sql.Tx, v int, create bool) error {
	if create {
		q := `CREATE TABLE schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	_, err := tx.Exec(`INSERT INTO schema_version (id, version) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET version = excluded.version`, v)
	return err
}

// writeGuard refuses a write when another member's newer release has
// migrated the store past what this binary knows: its records would lack
// the newer schema's columns. One read of a one-row table by its key.
func writeGuard(tx *sql.Tx, op string) error {
	var v int
	if err := tx.QueryRow(`SELECT version FROM schema_version WHERE id = 1`).Scan(&v); err != nil {
		return err
	}
	if v > Latest() {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op,
			"the dqlite store is at schema version %d but this binary knows versions up to %d: another member runs a newer release; this member's writes are refused until it is upgraded",
			v, Latest())
	}
	return nil
}
