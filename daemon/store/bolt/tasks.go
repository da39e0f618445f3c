package bolt

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// LoadTask implements op.Tasks.
func (t txn) LoadTask(id string) (lifecycle.AgentTask, bool, error) {
	var task lifecycle.AgentTask
	ok, err := get(t.Bucket(bTasks), id, &task)
	return task, ok, err
}

// TaskExists implements op.Tasks.
func (t txn) TaskExists(id string) (bool, error) { return t.Bucket(bTasks).Get([]byte(id)) != nil, nil }

// OpenTasks implements op.Tasks through the node's open index.
func (t txn) OpenTasks(nodeID string) ([]lifecycle.AgentTask, error) {
	b := t.Bucket(bOpenTasks).Bucket([]byte(nodeID))
	out := []lifecycle.AgentTask{}
	if b == nil {
		return out, nil
	}
	err := b.ForEach(func(k, _ []byte) error {
		var task lifecycle.AgentTask
		_, err := get(t.Bucket(bTasks), string(k), &task)
		out = append(out, task)
		return err
	})
	return out, err
}

// TasksOf implements op.Tasks: every task.
func (t txn) TasksOf(string) ([]lifecycle.AgentTask, error) {
	out := []lifecycle.AgentTask{}
	err := t.Bucket(bTasks).ForEach(func(k, _ []byte) error {
		var task lifecycle.AgentTask
		_, err := get(t.Bucket(bTasks), string(k), &task)
		out = append(out, task)
		return err
	})
	return out, err
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
	b := t.Bucket(bTaskSeq)
	var n uint64
	if _, err := get(b, nodeID, &n); err != nil {
		return 0, err
	}
	n++
	return n, put(b, []byte(nodeID), n)
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
