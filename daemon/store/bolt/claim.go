package bolt

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

// ClaimTask implements lifecycle.TaskStore.
func (s *Store) ClaimTask(ctx context.Context, nodeID string, lease time.Duration) (out lifecycle.AgentTask, ok bool, err error) {
	const op = "store.ClaimTask"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
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

func nextTaskSeq(tx *bbolt.Tx, nodeID string) (uint64, error) {
	b := tx.Bucket(bTaskSeq)
	var n uint64
	if _, err := get(b, nodeID, &n); err != nil {
		return 0, err
	}
	n++
	return n, put(b, []byte(nodeID), n)
}

// CompleteTask implements lifecycle.TaskStore.
func (s *Store) CompleteTask(ctx context.Context, nodeID, taskID string, seq uint64, res lifecycle.TaskResult) (out lifecycle.AgentTask, err error) {
	const op = "store.CompleteTask"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
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

func loadTask(tx *bbolt.Tx, op, id string) (lifecycle.AgentTask, error) {
	var t lifecycle.AgentTask
	ok, err := get(tx.Bucket(bTasks), id, &t)
	if err == nil && !ok {
		err = notFound(op, "task", id)
	}
	return t, err
}

// GetTask implements lifecycle.TaskStore.
func (s *Store) GetTask(ctx context.Context, id string) (t lifecycle.AgentTask, err error) {
	const op = "store.GetTask"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		t, err = loadTask(tx, op, id)
		return err
	})
	return t, err
}

// ListTasks implements lifecycle.TaskStore, oldest first.
func (s *Store) ListTasks(ctx context.Context, f lifecycle.TaskFilter) ([]lifecycle.AgentTask, error) {
	out := []lifecycle.AgentTask{}
	err := s.view(ctx, "store.ListTasks", func(tx *bbolt.Tx) error {
		return tx.Bucket(bTasks).ForEach(func(k, _ []byte) error {
			var t lifecycle.AgentTask
			if _, err := get(tx.Bucket(bTasks), string(k), &t); err != nil {
				return err
			}
			if rules.TaskMatches(f, t) {
				out = append(out, t)
			}
			return nil
		})
	})
	rules.SortTasks(out)
	return out, err
}
