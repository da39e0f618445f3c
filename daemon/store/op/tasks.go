package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Tasks are the agent tasks, with each node's unfinished ones indexed.
type Tasks interface {
	// LoadTask returns the task; false when there is none.
	LoadTask(id string) (lifecycle.AgentTask, bool, error)
	// TaskExists says whether a task has the id.
	TaskExists(id string) (bool, error)
	// OpenTasks returns the node's unfinished tasks, in any order.
	OpenTasks(nodeID string) ([]lifecycle.AgentTask, error)
	// TasksOf returns the node's tasks (every task for ""), in any order;
	// it may return others too.
	TasksOf(nodeID string) ([]lifecycle.AgentTask, error)
	// SaveTask writes t, in its node's open index while open.
	SaveTask(t lifecycle.AgentTask, open bool) error
	// NextTaskSeq returns the node's next dispatch sequence number.
	NextTaskSeq(nodeID string) (uint64, error)
}

// EnqueueTask implements lifecycle.TaskStore.
func (s Store) EnqueueTask(ctx context.Context, t lifecycle.AgentTask) (out lifecycle.AgentTask, created bool, err error) {
	const op = "store.EnqueueTask"
	if err := rules.ValidateNewTask(op, t); err != nil {
		return out, false, err
	}
	err = s.b.Batch(ctx, op, func(tx Tx) error {
		if _, err := LoadNode(tx, op, t.NodeID); err != nil {
			return err
		}
		if ok, err := tx.TaskExists(t.ID); err != nil || ok {
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
		if out, created, write = rules.Enqueue(t, open, s.b.Now()); !write {
			return nil
		}
		return tx.SaveTask(out, true)
	})
	if err != nil {
		return lifecycle.AgentTask{}, false, err
	}
	return out, created, nil
}

// openTasks returns the node's unfinished tasks, oldest first.
func openTasks(tx Tasks, nodeID string) ([]lifecycle.AgentTask, error) {
	out, err := tx.OpenTasks(nodeID)
	rules.SortTasks(out)
	return out, err
}

func loadTask(tx Tasks, op, id string) (lifecycle.AgentTask, error) {
	t, ok, err := tx.LoadTask(id)
	if err == nil && !ok {
		err = notFound(op, "task", id)
	}
	return t, err
}
