package rules

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ValidateNewTask checks a task about to be enqueued: an id, a node, a
// known type and an expiry (invalid otherwise).
func ValidateNewTask(op string, t lifecycle.AgentTask) error {
	if t.ID == "" || t.NodeID == "" || !t.Type.Valid() || t.ExpiresAt.IsZero() {
		return lifecycle.Invalid(op, "type", "a task needs an id, a node, a known type and an expiry (type %q)", t.Type)
	}
	return nil
}

// Enqueue decides the enqueueing of t beside its node's open tasks, oldest
// first. An open task of the same type still before its deadline stands
// for t: it is returned (created=false), requeued when its dispatch lease
// has lapsed. Otherwise t is returned queued afresh at now (created=true).
// write reports whether the returned task must be saved.
func Enqueue(t lifecycle.AgentTask, open []lifecycle.AgentTask, now time.Time) (out lifecycle.AgentTask, created, write bool) {
	for _, o := range open {
		if o.Type != t.Type || !now.Before(o.ExpiresAt) {
			continue
		}
		if o.State == lifecycle.TaskDispatched && !LeaseLive(o, now) {
			o.State, o.LeaseUntil, o.UpdatedAt = lifecycle.TaskQueued, nil, now
			return o, false, true
		}
		return o, false, false
	}
	t.State, t.Seq, t.Attempts, t.LeaseUntil, t.Result = lifecycle.TaskQueued, 0, 0, nil, nil
	t.CreatedAt, t.UpdatedAt = now, now
	return t, true, true
}
