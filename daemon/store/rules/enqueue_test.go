package rules

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestEnqueue(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	later, earlier := now.Add(time.Minute), now.Add(-time.Second)
	typ := lifecycle.TaskTypes[0]
	other := lifecycle.TaskTypes[1]
	t0 := lifecycle.AgentTask{ID: "new", NodeID: "n", Type: typ, ExpiresAt: later, Attempts: 9}
	open := func(st lifecycle.TaskState, ty lifecycle.TaskType, expires time.Time, lease *time.Time) []lifecycle.AgentTask {
		return []lifecycle.AgentTask{{ID: "old", NodeID: "n", Type: ty, State: st, ExpiresAt: expires, LeaseUntil: lease}}
	}
	tests := []struct {
		name           string
		open           []lifecycle.AgentTask
		wantID         string
		wantState      lifecycle.TaskState
		created, write bool
	}{
		{"nothing open", nil, "new", lifecycle.TaskQueued, true, true},
		{"another type open", open(lifecycle.TaskQueued, other, later, nil), "new", lifecycle.TaskQueued, true, true},
		{"the open one past its deadline", open(lifecycle.TaskQueued, typ, now, nil), "new", lifecycle.TaskQueued, true, true},
		{"queued already", open(lifecycle.TaskQueued, typ, later, nil), "old", lifecycle.TaskQueued, false, false},
		{"dispatched under a live lease", open(lifecycle.TaskDispatched, typ, later, &later), "old", lifecycle.TaskDispatched, false, false},
		{"dispatched, lease lapsed: requeued", open(lifecycle.TaskDispatched, typ, later, &earlier), "old", lifecycle.TaskQueued, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, created, write := Enqueue(t0, tt.open, now)
			if got.ID != tt.wantID || got.State != tt.wantState || created != tt.created || write != tt.write {
				t.Fatalf("got %s %s created %v write %v, want %s %s %v %v", got.ID, got.State, created, write, tt.wantID, tt.wantState, tt.created, tt.write)
			}
			if created && (got.Attempts != 0 || !got.CreatedAt.Equal(now)) {
				t.Errorf("new task %+v not queued afresh at %v", got, now)
			}
		})
	}
}
