package bolt

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

// EnqueueTask implements lifecycle.TaskStore.
func (s *Store) EnqueueTask(ctx context.Context, t lifecycle.AgentTask) (out lifecycle.AgentTask, created bool, err error) {
	const op = "store.EnqueueTask"
	if err := rules.ValidateNewTask(op, t); err != nil {
		return out, false, err
	}
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		if _, err := loadNode(tx, op, t.NodeID); err != nil {
			return err
		}
		if tx.Bucket(bTasks).Get([]byte(t.ID)) != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "task %q already exists", t.ID)
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
func openTasks(tx *bbolt.Tx, nodeID string) ([]lifecycle.AgentTask, error) {
	b := tx.Bucket(bOpenTasks).Bucket([]byte(nodeID))
	out := []lifecycle.AgentTask{}
	if b == nil {
		return out, nil
	}
	err := b.ForEach(func(k, _ []byte) error {
		var t lifecycle.AgentTask
		_, err := get(tx.Bucket(bTasks), string(k), &t)
		out = append(out, t)
		return err
	})
	rules.SortTasks(out)
	return out, err
}

// saveOpen writes an unfinished task and keeps it in the node's open index.
func saveOpen(tx *bbolt.Tx, t lifecycle.AgentTask) error {
	b, err := tx.Bucket(bOpenTasks).CreateBucketIfNotExists([]byte(t.NodeID))
	if err != nil {
		return err
	}
	if err := b.Put([]byte(t.ID), nil); err != nil {
		return err
	}
	return put(tx.Bucket(bTasks), []byte(t.ID), t)
}

// saveDone writes a finished task and drops it from the open index.
func saveDone(tx *bbolt.Tx, t lifecycle.AgentTask) error {
	if b := tx.Bucket(bOpenTasks).Bucket([]byte(t.NodeID)); b != nil {
		if err := b.Delete([]byte(t.ID)); err != nil {
			return err
		}
	}
	return put(tx.Bucket(bTasks), []byte(t.ID), t)
}
