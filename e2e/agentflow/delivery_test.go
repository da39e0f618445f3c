package agentflow

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

func TestEnrollThenDispatchAndResult(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeEnrolling)
	first := e.Enqueue(node, lifecycle.TaskHeartbeatCheck, map[string]string{}, time.Hour)
	again := e.Enqueue(node, lifecycle.TaskHeartbeatCheck, map[string]string{}, time.Hour)
	if again.ID != first.ID {
		t.Fatalf("a second enqueue of a live task made %s, want %s back", again.ID, first.ID)
	}
	h := &counter{}
	a := startAgent(t, e, node, h, 0)
	eventually(t, "the task to succeed", func() bool {
		got, _ := e.Store.GetTask(e.Ctx, first.ID)
		return got.State == lifecycle.TaskSucceeded
	})
	n, _ := e.Store.GetNode(e.Ctx, node)
	if n.Status != lifecycle.NodeActive || n.EnrolledAt == nil || n.LastContactAt == nil {
		t.Errorf("node after enrollment and a poll: %s enrolled %v contact %v", n.Status, n.EnrolledAt, n.LastContactAt)
	}
	got, _ := e.Store.GetTask(e.Ctx, first.ID)
	if h.runs.Load() != 1 || got.Result == nil || got.Result.Message != "counted" || got.Attempts != 1 {
		t.Errorf("runs %d, result %+v, attempts %d; want one run reported", h.runs.Load(), got.Result, got.Attempts)
	}
	if s := a.Stats(); s.Enrollments != 1 || s.Rejected != 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestLeaseExpiryRequeues holds the first run past its lease: the task is
// requeued, the late result is refused, and the redelivery (fresh
// sequence) succeeds.
func TestLeaseExpiryRequeues(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{Lease: 10 * time.Second})
	node := e.Node(lifecycle.NodeEnrolling)
	release := make(chan struct{})
	h := &counter{block: func(run int32) {
		if run == 1 {
			<-release
		}
	}}
	startAgent(t, e, node, h, 0)
	eventually(t, "enrollment", func() bool { n, _ := e.Store.GetNode(e.Ctx, node); return n.EnrolledAt != nil })
	tk := e.Enqueue(node, lifecycle.TaskHeartbeatCheck, map[string]string{}, time.Hour)
	eventually(t, "the first run", func() bool { return h.runs.Load() == 1 })
	e.Clock.Advance(11 * time.Second)
	again := e.Enqueue(node, lifecycle.TaskHeartbeatCheck, map[string]string{}, time.Hour)
	if again.ID != tk.ID || again.State != lifecycle.TaskQueued {
		t.Fatalf("enqueue after the lease lapsed = %s %s, want %s requeued", again.ID, again.State, tk.ID)
	}
	close(release)
	eventually(t, "the redelivered task to succeed", func() bool {
		got, _ := e.Store.GetTask(e.Ctx, tk.ID)
		return got.State == lifecycle.TaskSucceeded
	})
	got, _ := e.Store.GetTask(e.Ctx, tk.ID)
	if got.Attempts != 2 || h.runs.Load() != 2 || got.Seq < 2 {
		t.Errorf("attempts %d, runs %d, seq %d; want a second dispatch with a fresh sequence", got.Attempts, h.runs.Load(), got.Seq)
	}
}
