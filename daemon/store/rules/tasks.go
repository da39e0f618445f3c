package rules

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LeaseLive reports whether t's dispatch lease still holds at now.
func LeaseLive(t lifecycle.AgentTask, now time.Time) bool {
	return t.LeaseUntil != nil && now.Before(*t.LeaseUntil)
}

// PlanClaim decides a claim over a node's open tasks, oldest first: the
// tasks past their deadline, returned as expired (to be written as
// finished), and the index in open of the task to dispatch next, or -1
// when every live task is already dispatched under a live lease.
func PlanClaim(open []lifecycle.AgentTask, now time.Time) (expired []lifecycle.AgentTask, next int) {
	next = -1
	for i, t := range open {
		if !now.Before(t.ExpiresAt) {
			t.State, t.LeaseUntil, t.UpdatedAt = lifecycle.TaskExpired, nil, now
			expired = append(expired, t)
			continue
		}
		if next < 0 && !(t.State == lifecycle.TaskDispatched && LeaseLive(t, now)) {
			next = i
		}
	}
	return expired, next
}

// Dispatch returns t handed to its node under sequence seq, leased until
// now+lease, with one more attempt counted.
func Dispatch(t lifecycle.AgentTask, seq uint64, now time.Time, lease time.Duration) lifecycle.AgentTask {
	until := now.Add(lease)
	t.State, t.Seq, t.LeaseUntil, t.UpdatedAt = lifecycle.TaskDispatched, seq, &until, now
	t.Attempts++
	return t
}

// Complete applies a node's result for sequence seq to t. It returns the
// task to write and write=false when the same result was already recorded
// (a repeated report); forbidden when t belongs to another node, conflict
// when t is not dispatched under seq.
func Complete(op string, t lifecycle.AgentTask, nodeID string, seq uint64, res lifecycle.TaskResult, now time.Time) (out lifecycle.AgentTask, write bool, err error) {
	if t.NodeID != nodeID {
		return t, false, lifecycle.Errorf(lifecycle.CodeForbidden, op, "task %s does not belong to node %s", t.ID, nodeID)
	}
	want := lifecycle.TaskFailed
	if res.Success {
		want = lifecycle.TaskSucceeded
	}
	if t.State.Terminal() && t.Seq == seq && t.State == want {
		return t, false, nil // the same report again
	}
	if t.State != lifecycle.TaskDispatched || t.Seq != seq {
		return t, false, lifecycle.Errorf(lifecycle.CodeConflict, op, "task %s is %s at sequence %d; result for sequence %d refused", t.ID, t.State, t.Seq, seq)
	}
	if res.FinishedAt.IsZero() {
		res.FinishedAt = now
	}
	t.State, t.Result, t.LeaseUntil, t.UpdatedAt = want, &res, nil, now
	return t, true, nil
}

// TaskMatches reports whether t passes filter f.
func TaskMatches(f lifecycle.TaskFilter, t lifecycle.AgentTask) bool {
	if (f.NodeID != "" && f.NodeID != t.NodeID) || (f.Type != "" && f.Type != t.Type) {
		return false
	}
	return len(f.States) == 0 || slices.Contains(f.States, t.State)
}

// SortTasks orders tasks oldest first, by ID among equals.
func SortTasks(tasks []lifecycle.AgentTask) {
	slices.SortFunc(tasks, func(a, b lifecycle.AgentTask) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
	})
}
