package agentapi_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

func poll(t *testing.T, c *http.Client, url string) (int, wire.Task) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var task wire.Task
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&task); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, task
}

func TestWaitIsHeartbeatAndTimesOut(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	st, _ := poll(t, e.Client(e.ClientCert(node)), e.URL+wire.WaitPath(node)+"?timeout=50ms")
	if st != http.StatusNoContent {
		t.Fatalf("idle poll = %d, want 204", st)
	}
	if n, _ := e.Store.GetNode(e.Ctx, node); n.LastContactAt == nil || !n.LastContactAt.Equal(e.Clock.Now()) {
		t.Errorf("poll did not record contact: %v", n.LastContactAt)
	}
	if st, _ := poll(t, e.Client(e.ClientCert(node)), e.URL+wire.WaitPath(node)+"?timeout=soon"); st != http.StatusUnprocessableEntity {
		t.Errorf("bad timeout = %d, want 422", st)
	}
}

func TestEnqueueWakesWaitingPoll(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{MaxWait: 20 * time.Second})
	node := e.Node(lifecycle.NodeActive)
	c := e.Client(e.ClientCert(node))
	type answer struct {
		status int
		task   wire.Task
		after  time.Duration
	}
	got := make(chan answer, 1)
	start := time.Now()
	go func() {
		st, task := poll(t, c, e.URL+wire.WaitPath(node)+"?timeout=20s")
		got <- answer{st, task, time.Since(start)}
	}()
	time.Sleep(100 * time.Millisecond)
	want := e.Enqueue(node, lifecycle.TaskHeartbeatCheck, map[string]string{}, time.Hour)
	a := <-got
	if a.status != http.StatusOK || a.task.ID != want.ID || a.after > 5*time.Second {
		t.Fatalf("poll = %d task %q after %v; want 200 task %q promptly", a.status, a.task.ID, a.after, want.ID)
	}
	if err := wire.Verify(e.PKI.SigningPublicKey(), a.task); err != nil || a.task.Seq == 0 {
		t.Errorf("delivered task: %v, seq %d", err, a.task.Seq)
	}
}

func TestResultAndRenew(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	c := e.Client(e.ClientCert(node))
	task := e.Enqueue(node, lifecycle.TaskHeartbeatCheck, map[string]string{}, time.Hour)
	_, got := poll(t, c, e.URL+wire.WaitPath(node)+"?timeout=0s")
	var ack wire.ResultAck
	st, p := post(t, c, e.URL+wire.ResultPath(node, task.ID), wire.Result{Seq: got.Seq, Success: true, Message: "ok"}, &ack)
	if st != http.StatusOK || ack.State != string(lifecycle.TaskSucceeded) {
		t.Fatalf("result = %d %+v %+v", st, p, ack)
	}
	if st, _ := post(t, c, e.URL+wire.ResultPath(node, task.ID), wire.Result{Seq: got.Seq + 1, Success: true}, nil); st != http.StatusConflict {
		t.Errorf("result for a stale sequence = %d, want 409", st)
	}
	csr, _ := e.CSR()
	var cr wire.CertResponse
	if st, p := post(t, c, e.URL+wire.RenewPath(node), wire.RenewRequest{CSR: csr}, &cr); st != http.StatusOK {
		t.Fatalf("renew = %d %+v", st, p)
	}
	if n, _ := e.Store.GetNode(e.Ctx, node); n.AgentCertSerial != cr.Serial || cr.Serial == "" {
		t.Errorf("renewal not recorded: node serial %q, issued %q", n.AgentCertSerial, cr.Serial)
	}
}

// TestDispatchedTaskBoundToClaimingCertificate: a task is signed with the
// serial of the certificate that claimed it, the node's current one, or
// within the renewal overlap the previous one the agent still presents.
func TestDispatchedTaskBoundToClaimingCertificate(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	old := e.ClientCert(node)
	e.Enqueue(node, lifecycle.TaskHeartbeatCheck, map[string]string{}, time.Hour)
	_, got := poll(t, e.Client(old), e.URL+wire.WaitPath(node)+"?timeout=0s")
	n, _ := e.Store.GetNode(e.Ctx, node)
	if got.CertSerial == "" || got.CertSerial != n.AgentCertSerial {
		t.Fatalf("task bound to serial %q, want the node's %q", got.CertSerial, n.AgentCertSerial)
	}
	if err := wire.Verify(e.PKI.SigningPublicKey(), got); err != nil {
		t.Fatalf("bound task does not verify: %v", err)
	}
	stripped := got
	stripped.CertSerial = ""
	if wire.Verify(e.PKI.SigningPublicKey(), stripped) == nil {
		t.Fatal("the signature does not cover the serial")
	}

	renewed := renew(t, e, node, old)
	e.Clock.Advance(2 * time.Minute) // the first task's lease lapses
	_, again := poll(t, e.Client(old), e.URL+wire.WaitPath(node)+"?timeout=0s")
	if again.ID == "" || again.CertSerial != got.CertSerial {
		t.Errorf("task claimed within the overlap by the previous certificate bound to %q, want %q", again.CertSerial, got.CertSerial)
	}
	e.Clock.Advance(2 * time.Minute)
	_, third := poll(t, e.Client(renewed), e.URL+wire.WaitPath(node)+"?timeout=0s")
	n, _ = e.Store.GetNode(e.Ctx, node)
	if third.ID == "" || third.CertSerial != n.AgentCertSerial || third.CertSerial == got.CertSerial {
		t.Errorf("task claimed by the renewed certificate bound to %q, want the new serial %q", third.CertSerial, n.AgentCertSerial)
	}
}
