package main

import (
	"context"
	"log/slog"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
)

// wakeOnResult is the agent API's store: a recorded task result wakes
// the runs parked on the task's node (a decommission waiting for its
// drain, scrub or validation).
type wakeOnResult struct {
	lifecycle.Store
	wake func(key string)
}

// CompleteTask records the result, then wakes NodeKey.
func (w wakeOnResult) CompleteTask(ctx context.Context, nodeID, taskID string, seq uint64, res lifecycle.TaskResult) (lifecycle.AgentTask, error) {
	t, err := w.Store.CompleteTask(ctx, nodeID, taskID, seq, res)
	if err == nil {
		w.wake(lifecycle.NodeKey(nodeID))
	}
	return t, err
}

// outboxOf is the store's durable outbox when the store has one;
// otherwise the decommissions' lifecycle events are only logged.
func outboxOf(st any, log *slog.Logger) workflow.Outbox {
	if ob, ok := st.(workflow.Outbox); ok {
		return ob
	}
	log.Warn("the store has no outbox: decommission lifecycle events are logged, not delivered")
	return logOutbox{log: log}
}

// logOutbox logs lifecycle events instead of storing them.
type logOutbox struct{ log *slog.Logger }

func (l logOutbox) AppendEvent(_ context.Context, e lifecycle.OutboxEvent) (lifecycle.OutboxEvent, error) {
	l.log.Info("lifecycle event", "id", e.ID, "type", e.Type, "node", e.NodeID, "run", e.RunID)
	return e, nil
}
