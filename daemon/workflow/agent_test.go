package workflow_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
	"github.com/gpuaas/maas-sidecar/sim/simhost"
)

// withRealAgents serves the real agent API (internal CA, signed tasks,
// mutual TLS) and boots every deployed machine as a simulated host that
// runs the real agent from the cloud-init the workflow rendered; each
// prepare sees the host's root before it boots.
func withRealAgents(t *testing.T, s *site, prepare ...func(root string)) {
	t.Helper()
	p, err := pki.Open(pki.Options{Dir: filepath.Join(t.TempDir(), "pki")})
	must(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	cert, err := p.ServerCertificate([]string{"127.0.0.1"})
	must(t, err)
	tlsCfg, err := agentapi.TLSConfig(cert, p.CABundlePEM())
	must(t, err)
	resolver := workflow.ReseedPayloads{Deps: s.deps, RackURL: s.srv.URL + "/MAAS"}
	api := agentapi.New(agentapi.Config{Store: wakeOnResult{s.store, s.runner.Wake}, Authority: p, Signer: p, Logger: quiet(), Resolve: resolver.Resolve,
		OnEnrolled: func(_ context.Context, n lifecycle.Node) error { s.runner.Wake(lifecycle.NodeKey(n.ID)); return nil }})
	ctx, cancel := context.WithCancel(context.Background())
	srv := &agentapi.Server{Listener: ln, Handler: api.Handler(), TLS: tlsCfg, ShutdownTimeout: time.Second, Logger: quiet()}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	b := testBootstrap()
	b.AgentAPIURL, b.CABundlePEM, b.SigningPublicKey = "https://"+ln.Addr().String(), string(p.CABundlePEM()), string(p.SigningPublicKeyPEM())
	b.RackURL = s.srv.URL + "/MAAS"
	s.deps.Bootstrap, s.deps.Enrollment = b, pki.Enrollment{PKI: p, Store: s.store}
	s.enroll = func(boot maassim.Boot) {
		root := t.TempDir()
		for _, p := range prepare {
			p(root)
		}
		h, err := simhost.Boot(ctx, root, boot.UserData, simhost.Options{PollTimeout: time.Second,
			RetryInitial: 10 * time.Millisecond, RetryMax: 100 * time.Millisecond})
		if err != nil {
			t.Errorf("host %s did not boot: %v", boot.Hostname, err)
			return
		}
		s.mu.Lock()
		s.hostsUp[boot.Hostname] = h
		s.mu.Unlock()
	}
	s.queue = agentapi.Queue{Store: s.store, Notifier: api.Notifier()}
	s.deps.Tasks = s.queue
}

func TestOnboardWithTheRealAgent(t *testing.T) {
	s := newSite(t)
	withRealAgents(t, s)
	s.host("10.176.18.10", maassim.HostSpec{})
	id := s.onboard("c09u01", "10.176.18.10")
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	n, err := s.store.GetNode(context.Background(), r.NodeID)
	must(t, err)
	if n.Status != lifecycle.NodeActive || n.EnrolledAt == nil || n.AgentCertSerial == "" {
		t.Fatalf("node after a real enrollment: %+v", n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for n.LastContactAt == nil { // the agent's first long poll follows its enrollment
		if time.Now().After(deadline) {
			t.Fatal("the enrolled agent never polled")
		}
		time.Sleep(10 * time.Millisecond)
		n, _ = s.store.GetNode(context.Background(), r.NodeID)
	}
}

// A hardware-sync reseed is stored without secrets and completed at
// dispatch with the machine's MAAS token, which the real agent writes.
func TestReseedThroughTheAgent(t *testing.T) {
	s := newSite(t)
	withRealAgents(t, s)
	s.host("10.176.18.11", maassim.HostSpec{})
	r := s.wait(s.onboard("c09u02", "10.176.18.11"), 30*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("%s: %s", r.Status, r.ErrorMessage)
	}
	id, _ := lifecycle.NewID(nil)
	payload := []byte(`{"site_id":"site-1","system_id":"` + r.MaasSystemID + `"}`)
	_, _, err := s.queue.Enqueue(context.Background(), lifecycle.AgentTask{ID: id, NodeID: r.NodeID,
		Type: lifecycle.TaskHWSyncReseed, Payload: payload, ExpiresAt: time.Now().Add(time.Hour)})
	must(t, err)
	deadline := time.Now().Add(10 * time.Second)
	for {
		tk, err := s.store.GetTask(context.Background(), id)
		must(t, err)
		if tk.State == lifecycle.TaskSucceeded {
			break
		}
		if tk.State.Terminal() || time.Now().After(deadline) {
			t.Fatalf("reseed task %s: %+v", tk.State, tk.Result)
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.mu.Lock()
	h := s.hostsUp["c09u02"]
	s.mu.Unlock()
	creds, err := os.ReadFile(filepath.Join(h.Root, "etc/maas/maas-machine-creds.yml"))
	must(t, err)
	tok, err := s.client(t).MachineToken(context.Background(), r.MaasSystemID)
	must(t, err)
	if !strings.Contains(string(creds), tok.TokenSecret.Reveal()) || !strings.Contains(string(creds), "/metadata/status/"+r.MaasSystemID) {
		t.Fatalf("creds file lacks the machine token or endpoint:\n%s", creds)
	}
	stored, _ := s.store.GetTask(context.Background(), id)
	if strings.Contains(string(stored.Payload), tok.TokenSecret.Reveal()) {
		t.Fatal("the machine token reached the store")
	}
}

// wakeOnResult wakes the runs parked on a node when its agent reports a
// task's result, as the daemon wires the agent API.
type wakeOnResult struct {
	lifecycle.Store
	wake func(key string)
}

func (w wakeOnResult) CompleteTask(ctx context.Context, nodeID, taskID string, seq uint64, res lifecycle.TaskResult) (lifecycle.AgentTask, error) {
	t, err := w.Store.CompleteTask(ctx, nodeID, taskID, seq, res)
	if err == nil {
		w.wake(lifecycle.NodeKey(nodeID))
	}
	return t, err
}
