//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var _ lifecycle.Importer = (*Store)(nil)

// Import implements lifecycle.Importer in one transaction, bounded by
// BulkTimeout: each record
// goes to its table with its lookup columns, and the inbox and outbox
// counters continue after the imported ones. A retry after a leadership
// change during COMMIT can meet its own first attempt and answer
// conflict (not empty): export the store and compare before trying again.
func (s *Store) Import(ctx context.Context, recs []lifecycle.Record) error {
	const op = "store.Import"
	return s.updateWithin(ctx, op, max(s.timeout, BulkTimeout), func(tx *sql.Tx) error {
		if err := mustBeEmpty(tx, op); err != nil {
			return err
		}
		for _, r := range recs {
			if err := importRecord(tx, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// mustBeEmpty fails with conflict when any table but schema_version
// holds a row.
func mustBeEmpty(tx *sql.Tx, op string) error {
	rows, err := tx.Query(`SELECT name FROM sqlite_master WHERE type = 'table'
		AND name <> 'schema_version' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range tables {
		full, err := exists(tx, `SELECT 1 FROM "`+t+`" LIMIT 1`)
		if err != nil {
			return err
		}
		if full {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "the target store is not empty (table %s holds records); import needs an empty store", t)
		}
	}
	return nil
}

func importAs[T any](r lifecycle.Record, fn func(T) error) error {
	v, err := lifecycle.DecodeRecord[T](r)
	if err != nil {
		return err
	}
	return fn(v)
}

// insert stores v's JSON as the last argument of query.
func insert(tx *sql.Tx, query string, v any, args ...any) error {
	data, err := js(v)
	if err != nil {
		return err
	}
	_, err = tx.Exec(query, append(args, data)...)
	return err
}

// importSequence moves a table's AUTOINCREMENT counter to sq.Last, never
// below the highest imported number.
func importSequence(tx *sql.Tx, sq lifecycle.Sequence) error {
	table, ok := sequenceTables[sq.Name]
	if !ok {
		return lifecycle.Invalid("store.Import", "sequence", "unknown sequence %q", sq.Name)
	}
	if _, err := tx.Exec(`DELETE FROM sqlite_sequence WHERE name = ?`, table); err != nil {
		return err
	}
	_, err := tx.Exec(`INSERT INTO sqlite_sequence (name, seq)
		VALUES (?1, max(?2, (SELECT COALESCE(MAX(seq), 0) FROM "`+table+`")))`, table, int64(sq.Last))
	return err
}
