//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// DeleteUnenrolledNode implements lifecycle.NodeStore.
func (s *Store) DeleteUnenrolledNode(ctx context.Context, id string) (n lifecycle.Node, err error) {
	const op = "store.DeleteUnenrolledNode"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		if n, err = loadNode(tx, op, id); err != nil {
			return err
		}
		if err := rules.CheckDeleteUnenrolled(op, n); err != nil {
			return err
		}
		if ok, err := exists(tx, `SELECT 1 FROM agent_tasks WHERE node_id = ?`, id); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s has agent tasks; it is not deleted", id)
			}
			return err
		}
		for _, q := range []string{`DELETE FROM enrollment_tokens WHERE node_id = ?`, `DELETE FROM enrollment_newest WHERE node_id = ?`,
			`DELETE FROM node_maas_state WHERE node_id = ?`, `DELETE FROM agent_task_seq WHERE node_id = ?`,
			`DELETE FROM nodes WHERE id = ?`} {
			if _, err := tx.Exec(q, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}
