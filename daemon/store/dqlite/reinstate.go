//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// ReinstateEnrollmentToken implements lifecycle.EnrollmentStore.
func (s *Store) ReinstateEnrollmentToken(ctx context.Context, nodeID, hash string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.ReinstateEnrollmentToken"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		found, err := get(tx, &t, `SELECT data FROM enrollment_tokens WHERE hash = ?`, hash)
		if err != nil {
			return err
		}
		var newest lifecycle.EnrollmentToken
		if _, err := get(tx, &newest, newestTokenQuery, nodeID); err != nil {
			return err
		}
		var write bool
		if t, newest, write, err = rules.Reinstate(op, t, found, newest, nodeID, s.now()); err != nil || !write {
			return err
		}
		if err := saveEnroll(tx, newest, false); err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE enrollment_newest SET hash = ?2 WHERE node_id = ?1`, nodeID, t.Hash); err != nil {
			return err
		}
		return saveEnroll(tx, t, false)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return t, nil
}
