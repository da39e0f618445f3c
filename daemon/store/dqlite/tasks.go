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
	if t.ID == "" || t.NodeID == "" || !t.Type.Valid() || t.ExpiresAt.IsZero() {
		return out, false, lifecycle.Invalid(op, "type", "a task needs an id, a node, a known type and an expiry (type %q)", t.Type)
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
		now := s.now()
		open, err := openTasks(tx, t.NodeID)
		if err != nil {
			return err
		}
		for _, o := range open {
			if o.Type != t.Type || !now.Before(o.ExpiresAt) {
				continue
			}
			if o.State == lifecycle.TaskDispatched && !rules.LeaseLive(o, now) {
				o.State, o.LeaseUntil, o.UpdatedAt = lifecycle.TaskQueued, nil, now
				if err := saveOpen(tx, o); err != nil {
					return err
				}
			}
			out = o
			return nil
		}
		t.State, t.Seq, t.Attempts, t.LeaseUntil, t.Result = lifecycle.TaskQueued, 0, 0, nil, nil
		t.CreatedAt, t.UpdatedAt = now, now
		out, created = t, true
		return saveOpen(tx, t)
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
