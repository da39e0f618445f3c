//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// ClaimTask implements lifecycle.TaskStore.
func (s *Store) ClaimTask(ctx context.Context, nodeID string, lease time.Duration) (out lifecycle.AgentTask, ok bool, err error) {
	const op = "store.ClaimTask"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		open, err := openTasks(tx, nodeID)
		if err != nil {
			return err
		}
		now := s.now()
		expired, next := rules.PlanClaim(open, now)
		for _, t := range expired {
			if err := saveDone(tx, t); err != nil {
				return err
			}
		}
		if next < 0 {
			return nil
		}
		seq, err := nextTaskSeq(tx, nodeID)
		if err != nil {
			return err
		}
		out, ok = rules.Dispatch(open[next], seq, now, lease), true
		return saveOpen(tx, out)
	})
	if err != nil || !ok {
		return lifecycle.AgentTask{}, false, err
	}
	return out, true, nil
}

func nextTaskSeq(tx *sql.Tx, nodeID string) (uint64, error) {
	if _, err := tx.Exec(`INSERT INTO agent_task_seq (node_id, seq) VALUES (?, 1)
		ON CONFLICT (node_id) DO UPDATE SET seq = seq + 1`, nodeID); err != nil {
		return 0, err
	}
	var n int64
	err := tx.QueryRow(`SELECT seq FROM agent_task_seq WHERE node_id = ?`, nodeID).Scan(&n)
	return uint64(n), err
}

// CompleteTask implements lifecycle.TaskStore.
func (s *Store) CompleteTask(ctx context.Context, nodeID, taskID string, seq uint64, res lifecycle.TaskResult) (out lifecycle.AgentTask, err error) {
	const op = "store.CompleteTask"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		t, err := loadTask(tx, op, taskID)
		if err != nil {
			return err
		}
		var write bool
		if out, write, err = rules.Complete(op, t, nodeID, seq, res, s.now()); err != nil || !write {
			return err
		}
		return saveDone(tx, out)
	})
	if err != nil {
		return lifecycle.AgentTask{}, err
	}
	return out, nil
}

func loadTask(tx *sql.Tx, op, id string) (lifecycle.AgentTask, error) {
	var t lifecycle.AgentTask
	ok, err := get(tx, &t, `SELECT data FROM agent_tasks WHERE id = ?`, id)
	if err == nil && !ok {
		err = notFound(op, "task", id)
	}
	return t, err
}

// GetTask implements lifecycle.TaskStore.
func (s *Store) GetTask(ctx context.Context, id string) (t lifecycle.AgentTask, err error) {
	const op = "store.GetTask"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		t, err = loadTask(tx, op, id)
		return err
	})
	return t, err
}

// ListTasks implements lifecycle.TaskStore, oldest first.
func (s *Store) ListTasks(ctx context.Context, f lifecycle.TaskFilter) ([]lifecycle.AgentTask, error) {
	var all []lifecycle.AgentTask
	err := s.view(ctx, "store.ListTasks", func(tx *sql.Tx) (err error) {
		all, err = list[lifecycle.AgentTask](tx, `SELECT data FROM agent_tasks WHERE ?1 = '' OR node_id = ?1`, f.NodeID)
		return err
	})
	out := []lifecycle.AgentTask{}
	for _, t := range all {
		if rules.TaskMatches(f, t) {
			out = append(out, t)
		}
	}
	rules.SortTasks(out)
	return out, err
}
