//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"sort"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
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
		for _, t := range open {
			if !now.Before(t.ExpiresAt) {
				t.State, t.LeaseUntil, t.UpdatedAt = lifecycle.TaskExpired, nil, now
				if err := saveDone(tx, t); err != nil {
					return err
				}
				continue
			}
			if ok || (t.State == lifecycle.TaskDispatched && leaseLive(t, now)) {
				continue
			}
			seq, err := nextTaskSeq(tx, nodeID)
			if err != nil {
				return err
			}
			until := now.Add(lease)
			t.State, t.Seq, t.LeaseUntil, t.UpdatedAt = lifecycle.TaskDispatched, seq, &until, now
			t.Attempts++
			out, ok = t, true
			if err := saveOpen(tx, t); err != nil {
				return err
			}
		}
		return nil
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
		if t.NodeID != nodeID {
			return lifecycle.Errorf(lifecycle.CodeForbidden, op, "task %s does not belong to node %s", taskID, nodeID)
		}
		want := lifecycle.TaskFailed
		if res.Success {
			want = lifecycle.TaskSucceeded
		}
		if t.State.Terminal() && t.Seq == seq && t.State == want {
			out = t // the same report again
			return nil
		}
		if t.State != lifecycle.TaskDispatched || t.Seq != seq {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "task %s is %s at sequence %d; result for sequence %d refused", taskID, t.State, t.Seq, seq)
		}
		if res.FinishedAt.IsZero() {
			res.FinishedAt = s.now()
		}
		t.State, t.Result, t.LeaseUntil, t.UpdatedAt = want, &res, nil, s.now()
		out = t
		return saveDone(tx, t)
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
		if taskMatches(f, t) {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, err
}

func taskMatches(f lifecycle.TaskFilter, t lifecycle.AgentTask) bool {
	if (f.NodeID != "" && f.NodeID != t.NodeID) || (f.Type != "" && f.Type != t.Type) {
		return false
	}
	if len(f.States) == 0 {
		return true
	}
	for _, s := range f.States {
		if s == t.State {
			return true
		}
	}
	return false
}
