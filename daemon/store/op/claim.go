package op

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// ClaimTask implements lifecycle.TaskStore. Most claims are an agent's
// poll that finds nothing to hand out: a read answers those without a
// commit. The others share a commit (Batch) with concurrent writes.
func (s Store) ClaimTask(ctx context.Context, nodeID string, lease time.Duration) (out lifecycle.AgentTask, ok bool, err error) {
	const op = "store.ClaimTask"
	if idle, err := s.claimIdle(ctx, op, nodeID); err != nil || idle {
		return lifecycle.AgentTask{}, false, err
	}
	err = s.b.Batch(ctx, op, func(tx Tx) error {
		out, ok = lifecycle.AgentTask{}, false // a batch may run this again
		open, err := openTasks(tx, nodeID)
		if err != nil {
			return err
		}
		now := s.b.Now()
		expired, next := rules.PlanClaim(open, now)
		for _, t := range expired {
			if err := tx.SaveTask(t, false); err != nil {
				return err
			}
		}
		if next < 0 {
			return nil
		}
		seq, err := tx.NextTaskSeq(nodeID)
		if err != nil {
			return err
		}
		out, ok = rules.Dispatch(open[next], seq, now, lease), true
		return tx.SaveTask(out, true)
	})
	if err != nil || !ok {
		return lifecycle.AgentTask{}, false, err
	}
	return out, true, nil
}

// claimIdle says whether a claim for nodeID has nothing to write: no
// task to hand out and none past its deadline, in one read. A task
// queued after it is the next claim's, as it would be had the claim
// committed at that read.
func (s Store) claimIdle(ctx context.Context, op, nodeID string) (idle bool, err error) {
	err = s.b.View(ctx, op, func(tx Tx) error {
		open, err := tx.OpenTasks(nodeID)
		if err != nil {
			return err
		}
		expired, next := rules.PlanClaim(open, s.b.Now())
		idle = len(expired) == 0 && next < 0
		return nil
	})
	return idle, err
}

// CompleteTask implements lifecycle.TaskStore.
func (s Store) CompleteTask(ctx context.Context, nodeID, taskID string, seq uint64, res lifecycle.TaskResult) (out lifecycle.AgentTask, err error) {
	const op = "store.CompleteTask"
	err = s.b.Batch(ctx, op, func(tx Tx) error {
		t, err := loadTask(tx, op, taskID)
		if err != nil {
			return err
		}
		var write bool
		if out, write, err = rules.Complete(op, t, nodeID, seq, res, s.b.Now()); err != nil || !write {
			return err
		}
		return tx.SaveTask(out, false)
	})
	if err != nil {
		return lifecycle.AgentTask{}, err
	}
	return out, nil
}

// GetTask implements lifecycle.TaskStore.
func (s Store) GetTask(ctx context.Context, id string) (t lifecycle.AgentTask, err error) {
	const op = "store.GetTask"
	err = s.b.View(ctx, op, func(tx Tx) error {
		t, err = loadTask(tx, op, id)
		return err
	})
	return t, err
}

// ListTasks implements lifecycle.TaskStore, oldest first.
func (s Store) ListTasks(ctx context.Context, f lifecycle.TaskFilter) ([]lifecycle.AgentTask, error) {
	var all []lifecycle.AgentTask
	err := s.b.View(ctx, "store.ListTasks", func(tx Tx) (err error) {
		all, err = tx.TasksOf(f.NodeID)
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
