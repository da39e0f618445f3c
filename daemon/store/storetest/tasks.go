package storetest

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func (e *env) task(nodeID string, typ lifecycle.TaskType, ttl time.Duration) (lifecycle.AgentTask, bool) {
	e.t.Helper()
	t, created, err := e.st.EnqueueTask(e.ctx, lifecycle.AgentTask{ID: e.id("task"), NodeID: nodeID, Type: typ,
		Payload: []byte(`{"k":"v"}`), ExpiresAt: e.clock.Now().Add(ttl)})
	e.must(err)
	return t, created
}

func (e *env) claim(nodeID string) (lifecycle.AgentTask, bool) {
	e.t.Helper()
	t, ok, err := e.st.ClaimTask(e.ctx, nodeID, 30*time.Second)
	e.must(err)
	return t, ok
}

func testTaskQueue(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeEnrolling)
	drain, created := e.task(n.ID, lifecycle.TaskDrain, time.Hour)
	if !created || drain.State != lifecycle.TaskQueued || string(drain.Payload) != `{"k":"v"}` {
		t.Fatalf("enqueue = %+v created=%v", drain, created)
	}
	if again, created := e.task(n.ID, lifecycle.TaskDrain, time.Hour); created || again.ID != drain.ID {
		t.Fatalf("a fresh queued task must be returned, not duplicated: %+v", again)
	}
	e.clock.Advance(time.Second)
	hb, _ := e.task(n.ID, lifecycle.TaskHeartbeatCheck, time.Hour)

	got, ok := e.claim(n.ID)
	if !ok || got.ID != drain.ID || got.Seq != 1 || got.State != lifecycle.TaskDispatched || got.Attempts != 1 {
		t.Fatalf("first claim = %+v", got)
	}
	if live, created := e.task(n.ID, lifecycle.TaskDrain, time.Hour); created || live.State != lifecycle.TaskDispatched {
		t.Fatalf("a live dispatched task must be returned, not duplicated: %+v", live)
	}
	second, ok := e.claim(n.ID)
	if !ok || second.ID != hb.ID || second.Seq != 2 {
		t.Fatalf("second claim = %+v", second)
	}
	if _, ok := e.claim(n.ID); ok {
		t.Fatal("nothing left to claim while leases are live")
	}
	e.clock.Advance(31 * time.Second) // both leases lapse
	re, ok := e.claim(n.ID)
	if !ok || re.ID != drain.ID || re.Seq != 3 || re.Attempts != 2 {
		t.Fatalf("lapsed lease must requeue with a new sequence: %+v", re)
	}
	_, err := e.st.CompleteTask(e.ctx, n.ID, drain.ID, 1, lifecycle.TaskResult{Success: true})
	e.wantCode(err, lifecycle.CodeConflict) // the superseded dispatch
	other := e.node(s.ID, lifecycle.NodeEnrolling)
	_, err = e.st.CompleteTask(e.ctx, other.ID, drain.ID, 3, lifecycle.TaskResult{Success: true})
	e.wantCode(err, lifecycle.CodeForbidden)
	done, err := e.st.CompleteTask(e.ctx, n.ID, drain.ID, 3, lifecycle.TaskResult{Success: true, Message: "drained"})
	e.must(err)
	if done.State != lifecycle.TaskSucceeded || done.Result == nil || done.Result.Message != "drained" || done.LeaseUntil != nil {
		t.Fatalf("completed = %+v", done)
	}
	_, err = e.st.CompleteTask(e.ctx, n.ID, drain.ID, 3, lifecycle.TaskResult{Success: true})
	e.must(err) // the same report twice
	_, err = e.st.CompleteTask(e.ctx, n.ID, drain.ID, 3, lifecycle.TaskResult{Success: false})
	e.wantCode(err, lifecycle.CodeConflict)
	if fresh, created := e.task(n.ID, lifecycle.TaskDrain, time.Hour); !created || fresh.ID == drain.ID {
		t.Fatal("after completion a new task of the type must be created")
	}
	_, _, err = e.st.EnqueueTask(e.ctx, lifecycle.AgentTask{ID: "bad", NodeID: n.ID, Type: "shell.exec", ExpiresAt: e.clock.Now().Add(time.Hour)})
	e.wantCode(err, lifecycle.CodeInvalid)
	_, _, err = e.st.EnqueueTask(e.ctx, lifecycle.AgentTask{ID: "bad", NodeID: "nope", Type: lifecycle.TaskDrain, ExpiresAt: e.clock.Now().Add(time.Hour)})
	e.wantCode(err, lifecycle.CodeNotFound)
}

func testTaskExpiry(t *testing.T, e *env) {
	s := e.site()
	n := e.node(s.ID, lifecycle.NodeEnrolling)
	short, _ := e.task(n.ID, lifecycle.TaskUninstall, time.Minute)
	got, ok := e.claim(n.ID)
	if !ok || got.ID != short.ID {
		t.Fatal("claim failed")
	}
	e.clock.Advance(2 * time.Minute)
	if lapsed, created := e.task(n.ID, lifecycle.TaskUninstall, time.Hour); !created || lapsed.ID == short.ID {
		t.Fatal("an expired task must not be reused")
	}
	e.clock.Advance(time.Second)
	next, ok := e.claim(n.ID)
	if !ok || next.ID == short.ID || next.Seq != 2 {
		t.Fatalf("claim after expiry = %+v", next)
	}
	old, err := e.st.GetTask(e.ctx, short.ID)
	e.must(err)
	if old.State != lifecycle.TaskExpired {
		t.Fatalf("expired task state = %s", old.State)
	}
	list, err := e.st.ListTasks(e.ctx, lifecycle.TaskFilter{NodeID: n.ID, States: []lifecycle.TaskState{lifecycle.TaskExpired}})
	e.must(err)
	if len(list) != 1 || list[0].ID != short.ID {
		t.Fatalf("ListTasks expired = %+v", list)
	}
}

func testEnrollment(t *testing.T, e *env) {
	s := e.site()
	n, other := e.node(s.ID, lifecycle.NodeEnrolling), e.node(s.ID, lifecycle.NodeEnrolling)
	mk := func(hash string, ttl time.Duration) {
		e.must(e.st.CreateEnrollmentToken(e.ctx, lifecycle.EnrollmentToken{Hash: hash, NodeID: n.ID, ExpiresAt: e.clock.Now().Add(ttl)}))
	}
	mk("h1", time.Hour)
	_, err := e.st.ConsumeEnrollmentToken(e.ctx, "h1", other.ID, "key-1")
	e.wantCode(err, lifecycle.CodeForbidden)
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "nope", n.ID, "key-1")
	e.wantCode(err, lifecycle.CodeNotFound)
	tok, err := e.st.ConsumeEnrollmentToken(e.ctx, "h1", n.ID, "key-1")
	e.must(err)
	if tok.UsedAt == nil {
		t.Fatal("consumed token must record its use")
	}
	again, err := e.st.ConsumeEnrollmentToken(e.ctx, "h1", n.ID, "key-1")
	e.must(err) // the same key retrying after a lost answer
	if !again.UsedAt.Equal(*tok.UsedAt) {
		t.Fatal("a replay must not move the use time")
	}
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "h1", n.ID, "key-2")
	e.wantCode(err, lifecycle.CodeConflict)
	mk("h2", time.Minute)
	e.clock.Advance(2 * time.Minute)
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "h2", n.ID, "key-1")
	e.wantCode(err, lifecycle.CodeConflict)
	mk("h3", time.Hour)
	mk("h4", time.Hour) // supersedes h3
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "h3", n.ID, "key-1")
	e.wantCode(err, lifecycle.CodeConflict)
	_, err = e.st.ConsumeEnrollmentToken(e.ctx, "h4", n.ID, "key-1")
	e.must(err)
	e.wantCode(e.st.CreateEnrollmentToken(e.ctx, lifecycle.EnrollmentToken{Hash: "h5", NodeID: "nope", ExpiresAt: e.clock.Now().Add(time.Hour)}), lifecycle.CodeNotFound)

	e.must(e.st.TouchNodeContact(e.ctx, n.ID))
	got, _ := e.st.GetNode(e.ctx, n.ID)
	if got.LastContactAt == nil || !got.LastContactAt.Equal(e.clock.Now()) {
		t.Fatalf("last contact = %v", got.LastContactAt)
	}
	e.wantCode(e.st.TouchNodeContact(e.ctx, "nope"), lifecycle.CodeNotFound)
}
