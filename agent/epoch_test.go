package agent

import (
	"context"
	"crypto/ed25519"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/transport/faketransport"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// countTask counts its runs.
type countTask struct {
	mu   sync.Mutex
	runs int
}

func (c *countTask) Run(context.Context, task.Env, []byte) (task.Result, error) {
	c.mu.Lock()
	c.runs++
	c.mu.Unlock()
	return task.Result{Message: "ran"}, nil
}

// TestRefusesTaskFromPreviousEpoch: a reimaged host (a fresh state
// directory, so no sequence high-water) enrolled anew refuses a task
// signed for its previous certificate, and runs one bound to its own
// certificate and one from a daemon that binds none.
func TestRefusesTaskFromPreviousEpoch(t *testing.T) {
	is := newIssuer(t)
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	h := &countTask{}
	r.a.o.Registry.Register("node.heartbeat_check", h)
	tr.EnrollFn = func(req wire.EnrollRequest) (wire.CertResponse, error) { return is.sign(req.CSR, r.clock.Now()) }
	own := big.NewInt(t0.Unix()).Text(16) // the issuer's serial for a certificate from t0
	previous := big.NewInt(t0.Unix() - 3600).Text(16)
	key := ed25519.NewKeyFromSeed(make([]byte, 32)) // the rig's signing key
	mk := func(id string, seq uint64, serial string) wire.Task {
		return wire.Sign(key, wire.Task{ID: id, NodeID: "node-1", Type: "node.heartbeat_check", Payload: []byte(`{}`),
			ExpiresAt: t0.Add(time.Hour), Seq: seq, CertSerial: serial})
	}
	queue := []wire.Task{mk("old-life", 1, previous), mk("this-life", 1, own), mk("unbound", 2, "")}
	var mu sync.Mutex
	results := map[string]wire.Result{}
	done := make(chan struct{})
	tr.WaitFn = func() (*wire.Task, error) {
		mu.Lock()
		defer mu.Unlock()
		if len(queue) == 0 {
			time.Sleep(time.Millisecond)
			return nil, nil
		}
		next := queue[0]
		queue = queue[1:]
		return &next, nil
	}
	tr.ReportFn = func(id string, res wire.Result) error {
		mu.Lock()
		defer mu.Unlock()
		results[id] = res
		if len(results) == 3 {
			close(done)
		}
		return nil
	}
	r.run(t)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("not every task was answered")
	}
	mu.Lock()
	defer mu.Unlock()
	got := map[string]bool{}
	for id, res := range results {
		got[id] = res.Rejected
	}
	if diff := cmp.Diff(map[string]bool{"old-life": true, "this-life": false, "unbound": false}, got); diff != "" {
		t.Errorf("rejected by task (-want +got):\n%s", diff)
	}
	if h.runs != 2 || r.a.Stats().Rejected != 1 {
		t.Errorf("ran %d tasks and rejected %d, want 2 and 1", h.runs, r.a.Stats().Rejected)
	}
}
