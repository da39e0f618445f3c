//go:build dqlite

package dqlite

import (
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LoadTask implements op.Tasks.
func (t txn) LoadTask(id string) (lifecycle.AgentTask, bool, error) {
	var task lifecycle.AgentTask
	ok, err := get(t.Tx, &task, `SELECT data FROM agent_tasks WHERE id = ?`, id)
	return task, ok, err
}

// TaskExists implements op.Tasks.
func (t txn) TaskExists(id string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM agent_tasks WHERE id = ?`, id)
}

// OpenTasks implements op.Tasks (open = 1: the node's open index).
func (t txn) OpenTasks(nodeID string) ([]lifecycle.AgentTask, error) {
	return list[lifecycle.AgentTask](t.Tx, `SELECT data FROM agent_tasks WHERE node_id = ? AND open = 1`, nodeID)
}

// TasksOf implements op.Tasks.
func (t txn) TasksOf(nodeID string) ([]lifecycle.AgentTask, error) {
	return list[lifecycle.AgentTask](t.Tx, `SELECT data FROM agent_tasks WHERE ?1 = '' OR node_id = ?1`, nodeID)
}

// SaveTask implements op.Tasks.
func (t txn) SaveTask(task lifecycle.AgentTask, open bool) error {
	if open {
		return saveOpen(t.Tx, task)
	}
	return saveDone(t.Tx, task)
}

// NextTaskSeq implements op.Tasks.
func (t txn) NextTaskSeq(nodeID string) (uint64, error) {
	if _, err := t.Exec(`INSERT INTO agent_task_seq (node_id, seq) VALUES (?, 1)
		ON CONFLICT (node_id) DO UPDATE SET seq = seq + 1`, nodeID); err != nil {
		return 0, err
	}
	var n int64
	err := t.QueryRow(`SELECT seq FROM agent_task_seq WHERE node_id = ?`, nodeID).Scan(&n)
	return uint64(n), err
}

// saveOpen writes an unfinished task (open = 1, in the node's open index).
func saveOpen(tx *sql.Tx, t lifecycle.AgentTask) error { return saveTask(tx, t, 1) }

// saveDone writes a finished task, out of the open index.
func saveDone(tx *sql.Tx, t lifecycle.AgentTask) error { return saveTask(tx, t, 0) }

func saveTask(tx *sql.Tx, t lifecycle.AgentTask, open int) error {
	data, err := js(t)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`INSERT INTO agent_tasks (id, node_id, open, data) VALUES (?1, ?2, ?3, ?4)
		ON CONFLICT (id) DO UPDATE SET open = excluded.open, data = excluded.data`, t.ID, t.NodeID, open, data)
	return err
}
