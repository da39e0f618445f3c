//go:build dqlite

package dqlite

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

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
	return true, decode(raw, v)
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
		if err := decode(raw, &v); err != nil {
			return nil, err
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

func decode(raw string, v any) error {
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return fmt.Errorf("decode record: %w", err)
	}
	return nil
}

func js(v any) (string, error) {
	raw, err := json.Marshal(v)
	return string(raw), err
}

func notFound(op, kind, id string) error {
	return lifecycle.Errorf(lifecycle.CodeNotFound, op, "%s %q not found", kind, id)
}
