package rules

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestPlanClaim(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	later, earlier := now.Add(time.Minute), now.Add(-time.Second)
	task := func(id string, st lifecycle.TaskState, expires time.Time, lease *time.Time) lifecycle.AgentTask {
		return lifecycle.AgentTask{ID: id, State: st, ExpiresAt: expires, LeaseUntil: lease}
	}
	tests := []struct {
		name    string
		open    []lifecycle.AgentTask
		expired []string
		next    int
	}{
		{"none open", nil, nil, -1},
		{"oldest queued first", []lifecycle.AgentTask{task("a", lifecycle.TaskQueued, later, nil), task("b", lifecycle.TaskQueued, later, nil)}, nil, 0},
		{"a live dispatch is skipped", []lifecycle.AgentTask{task("a", lifecycle.TaskDispatched, later, &later), task("b", lifecycle.TaskQueued, later, nil)}, nil, 1},
		{"a lapsed dispatch is taken again", []lifecycle.AgentTask{task("a", lifecycle.TaskDispatched, later, &earlier)}, nil, 0},
		{"past the deadline expires", []lifecycle.AgentTask{task("a", lifecycle.TaskQueued, now, nil), task("b", lifecycle.TaskQueued, later, nil), task("c", lifecycle.TaskQueued, earlier, nil)}, []string{"a", "c"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expired, next := PlanClaim(tt.open, now)
			var ids []string
			for _, e := range expired {
				if e.State != lifecycle.TaskExpired || e.LeaseUntil != nil || !e.UpdatedAt.Equal(now) {
					t.Errorf("expired task %s written as %+v", e.ID, e)
				}
				ids = append(ids, e.ID)
			}
			if d := cmp.Diff(tt.expired, ids); d != "" || next != tt.next {
				t.Errorf("next %d, want %d; expired (-want +got):\n%s", next, tt.next, d)
			}
		})
	}
}

func TestComplete(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	until := now.Add(time.Minute)
	dispatched := lifecycle.AgentTask{ID: "t", NodeID: "n", State: lifecycle.TaskDispatched, Seq: 3, LeaseUntil: &until}
	done := dispatched
	done.State, done.LeaseUntil = lifecycle.TaskSucceeded, nil
	tests := []struct {
		name      string
		task      lifecycle.AgentTask
		node      string
		seq       uint64
		write     bool
		wantState lifecycle.TaskState
		code      lifecycle.Code
	}{
		{"first report", dispatched, "n", 3, true, lifecycle.TaskSucceeded, ""},
		{"the same report again", done, "n", 3, false, lifecycle.TaskSucceeded, ""},
		{"another node", dispatched, "m", 3, false, "", lifecycle.CodeForbidden},
		{"an old sequence", dispatched, "n", 2, false, "", lifecycle.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, write, err := Complete("op", tt.task, tt.node, tt.seq, lifecycle.TaskResult{Success: true}, now)
			if code := lifecycle.ErrorCode(err); code != tt.code || write != tt.write {
				t.Fatalf("code %q write %v, want %q %v (err %v)", code, write, tt.code, tt.write, err)
			}
			if err == nil && got.State != tt.wantState {
				t.Errorf("state %s, want %s", got.State, tt.wantState)
			}
			if write && (got.LeaseUntil != nil || got.Result == nil || !got.Result.FinishedAt.Equal(now)) {
				t.Errorf("completed task %+v keeps its lease or lacks its result", got)
			}
		})
	}
}
