//go:build integration

package feed_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// TestLiveMetricsPassPromtool scrapes /metrics of a daemon that has seen
// webhooks, events, a resync, drift, a quarantine and stage attempts, and
// lints it with promtool check metrics (rc 3 on lint problems). promtool
// comes from Debian's prometheus package (hack/apt-packages.txt); without
// it this test fails.
func TestLiveMetricsPassPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install the Debian prometheus package (make test-deps)")
	}
	s := newSite(t, opts{webhooks: true, poll: 50 * time.Millisecond, resync: 100 * time.Millisecond})
	id, sid := s.activeNode("gpu-a1")
	must(t, s.sim.ReleaseOutOfBand(context.Background(), sid))
	s.waitState(id, lifecycle.NodeQuarantined, 3*time.Second)
	s.eventually(3*time.Second, "a resync and the lag of both hint sources", func() bool {
		return s.metric("maas_sidecar_feed_last_success_timestamp_seconds", "source", "resync") > 0 &&
			s.has("maas_sidecar_feed_lag_seconds", "source", "webhook") && s.has("maas_sidecar_feed_lag_seconds", "source", "events")
	})
	s.stages.Observe(runner.StageObservation{Workflow: "onboarding", Kind: lifecycle.RunOnboarding,
		Stage: lifecycle.StageCommissionNode, Outcome: lifecycle.EventFailed, FailureClass: lifecycle.FailHardwareMismatch, Duration: time.Second})
	var ready api.Readiness
	srv := httptest.NewServer(api.NewRouter(api.Deps{Readiness: &ready, Metrics: s.reg}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	must(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	must(t, err)
	for _, name := range []string{"maas_sidecar_drift_open", "maas_sidecar_webhook_received_total", "maas_sidecar_feed_lag_seconds",
		"maas_sidecar_maas_requests_total", "maas_sidecar_stage_duration_seconds", "maas_sidecar_store_commit_duration_seconds",
		"maas_sidecar_nodes", "maas_sidecar_runs", "maas_sidecar_agent_last_contact_age_seconds", "maas_sidecar_maas_up"} {
		if !strings.Contains(string(body), name) {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(string(body))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
}
