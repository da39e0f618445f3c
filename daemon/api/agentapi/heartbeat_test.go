package agentapi_test

import (
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// Every accepted long poll is one heartbeat; a poll refused at
// authentication is not.
func TestHeartbeatsCountAcceptedPolls(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := agentapi.NewMetrics(reg)
	if n := testutil.CollectAndCount(reg, "maas_sidecar_agent_heartbeats_total"); n != 1 {
		t.Fatalf("%d heartbeat series before any poll, want 1 (at zero)", n)
	}
	e := agentenv.New(t, agentenv.Options{Configure: func(c *agentapi.Config) { c.Metrics = m }})
	node := e.Node(lifecycle.NodeActive)
	cert := e.ClientCert(node)
	for range 3 {
		if st := pollStatus(t, e, node, cert); st != http.StatusNoContent {
			t.Fatalf("poll = %d, want 204", st)
		}
	}
	if st := pollStatus(t, e, node, e.StrayCert(node)); st != http.StatusUnauthorized {
		t.Fatalf("poll with a stray certificate = %d, want 401", st)
	}
	if got := testutil.ToFloat64(m.Heartbeats()); got != 3 {
		t.Errorf("heartbeats = %v, want 3", got)
	}
}
