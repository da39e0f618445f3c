//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// EnqueueTask implements lifecycle.TaskStore.
func (s *Store) EnqueueTask(ctx context.Context, t lifecycle.AgentTask) (out lifecycle.AgentTask, created bool, err error) {
	const op = "store.EnqueueTask"
	if err := rules.ValidateNewTask(op, t); err != nil {
		return out, false, err
	}
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		if _, err := loadNode(tx, op, t.NodeID); err != nil {
			return err
		}
		if ok, err := exists(tx, `SELECT 1 FROM agent_tasks WHERE id = ?`, t.ID); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "task %q already exists", t.ID)
			}
			return err
		}
		open, err := openTasks(tx, t.NodeID)
		if err != nil {
			return err
		}
		var write bool
		if out, created, write = rules.Enqueue(t, open, s.now()); !write {
			return nil
		}
		return saveOpen(tx, out)
	})
	if err != nil {
		return lifecycle.AgentTask{}, false, err
	}
	return out, created, nil
}

// openTasks returns the node's unfinished tasks, oldest first.
func openTasks(tx *sql.Tx, nodeID string) ([]lifecycle.AgentTask, error) {
	out, err := list[lifecycle.AgentTask](tx, `SELECT data FROM agent_tasks WHERE node_id = ? AND open = 1`, nodeID)
	rules.SortTasks(out)
	return out, err
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
