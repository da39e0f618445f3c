//go:build dqlite

package dqlite

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// NodeHasTasks implements op.Removals.
func (t txn) NodeHasTasks(nodeID string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM agent_tasks WHERE node_id = ?`, nodeID)
}

// DropNode implements op.Removals.
func (t txn) DropNode(n lifecycle.Node) error {
	for _, q := range []string{`DELETE FROM enrollment_tokens WHERE node_id = ?`, `DELETE FROM enrollment_newest WHERE node_id = ?`,
		`DELETE FROM node_maas_state WHERE node_id = ?`, `DELETE FROM agent_task_seq WHERE node_id = ?`,
		`DELETE FROM nodes WHERE id = ?`} {
		if _, err := t.Exec(q, n.ID); err != nil {
			return err
		}
	}
	return nil
}
