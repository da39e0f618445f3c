package agentapi_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// Payloads that need secrets are stored without them and completed at
// dispatch; a payload that cannot be completed now is not sent.
func TestPayloadResolvedAtDispatch(t *testing.T) {
	fail := true
	resolve := func(_ context.Context, tk lifecycle.AgentTask) ([]byte, error) {
		if fail {
			return nil, lifecycle.Wrap(lifecycle.CodeUnavailable, "resolve", errors.New("MAAS down"))
		}
		return []byte(`{"secret":"fresh-from-maas"}`), nil
	}
	e := agentenv.New(t, agentenv.Options{Resolve: resolve, Lease: time.Second})
	node := e.Node(lifecycle.NodeActive)
	task := e.Enqueue(node, lifecycle.TaskHWSyncReseed, map[string]string{"system_id": "abc"}, time.Hour)
	c := e.Client(e.ClientCert(node))
	if st, _ := poll(t, c, e.URL+wire.WaitPath(node)+"?timeout=50ms"); st != http.StatusServiceUnavailable {
		t.Fatalf("unresolvable payload: %d, want 503", st)
	}
	fail = false
	e.Clock.Advance(2 * time.Second) // the dispatch's lease lapses
	st, got := poll(t, c, e.URL+wire.WaitPath(node)+"?timeout=50ms")
	if st != http.StatusOK || got.ID != task.ID || string(got.Payload) != `{"secret":"fresh-from-maas"}` {
		t.Fatalf("poll = %d %q %s", st, got.ID, got.Payload)
	}
	if err := wire.Verify(e.PKI.SigningPublicKey(), got); err != nil {
		t.Fatalf("resolved payload must be signed: %v", err)
	}
	stored, _ := e.Store.GetTask(e.Ctx, task.ID)
	if string(stored.Payload) != `{"system_id":"abc"}` {
		t.Fatalf("the store must keep the payload without secrets: %s", stored.Payload)
	}
}
