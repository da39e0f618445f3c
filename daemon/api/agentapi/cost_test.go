package agentapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// TestZeroTimeoutPollWaitsTheMinimum: a client asking for timeout=0s still
// waits the minimum, so a spinning client cannot cost a claim per request.
func TestZeroTimeoutPollWaitsTheMinimum(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	c := e.Client(e.ClientCert(node))
	start := time.Now()
	if st, _ := poll(t, c, e.URL+wire.WaitPath(node)+"?timeout=0s"); st != http.StatusNoContent {
		t.Fatalf("poll = %d, want 204", st)
	}
	if el := time.Since(start); el < 900*time.Millisecond {
		t.Errorf("a timeout=0s poll answered after %v, want at least the 1s minimum", el)
	}
}

// TestContactWrittenAtMostEveryFewSeconds: polls within ContactEvery (5s)
// of the last recorded contact do not write it again.
func TestContactWrittenAtMostEveryFewSeconds(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	c := e.Client(e.ClientCert(node))
	contact := func() time.Time {
		t.Helper()
		poll(t, c, e.URL+wire.WaitPath(node)+"?timeout=10ms")
		n, err := e.Store.GetNode(e.Ctx, node)
		if err != nil || n.LastContactAt == nil {
			t.Fatalf("node %v, %v: no contact recorded", n, err)
		}
		return *n.LastContactAt
	}
	first := contact()
	e.Clock.Advance(2 * time.Second)
	if got := contact(); !got.Equal(first) {
		t.Errorf("a poll 2s later wrote contact %v (first %v)", got, first)
	}
	e.Clock.Advance(4 * time.Second)
	if got := contact(); !got.Equal(e.Clock.Now()) {
		t.Errorf("a poll 6s later left contact at %v, want %v", got, e.Clock.Now())
	}
}
