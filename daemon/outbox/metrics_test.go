package outbox_test

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/outbox"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// The metrics count deliveries by type, failures by reason, and the age
// of the oldest event still waiting.
func TestMetrics(t *testing.T) {
	e := newEnv(t)
	reg := prometheus.NewRegistry()
	p := outbox.New(outbox.Options{Store: e.st, URL: e.url, Secret: outbox.SecretFile(e.secret), Clock: e.clock,
		Rand: func() float64 { return 0 }, Backoff: backoff.Policy{Initial: time.Minute, Max: time.Minute},
		Metrics: outbox.NewMetrics(reg)})
	e.rv.fail["a1"] = 1
	e.add("a1", "n1")
	e.add("b1", "n2")
	e.clock.Advance(10 * time.Second)
	e.pass(p, 2)
	want := `
# HELP maas_sidecar_events_delivered_total Lifecycle events the control plane accepted, by event type.
# TYPE maas_sidecar_events_delivered_total counter
maas_sidecar_events_delivered_total{type="node.decommission.started"} 1
# HELP maas_sidecar_events_failed_total Failed lifecycle event delivery attempts (each is retried), by reason.
# TYPE maas_sidecar_events_failed_total counter
maas_sidecar_events_failed_total{reason="encode"} 0
maas_sidecar_events_failed_total{reason="http_status"} 1
maas_sidecar_events_failed_total{reason="redirect"} 0
maas_sidecar_events_failed_total{reason="secret"} 0
maas_sidecar_events_failed_total{reason="transport"} 0
# HELP maas_sidecar_events_oldest_undelivered_age_seconds Age of the oldest lifecycle event not yet delivered; 0 when none waits.
# TYPE maas_sidecar_events_oldest_undelivered_age_seconds gauge
maas_sidecar_events_oldest_undelivered_age_seconds 10
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "maas_sidecar_events_delivered_total",
		"maas_sidecar_events_failed_total", "maas_sidecar_events_oldest_undelivered_age_seconds"); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(time.Minute)
	e.pass(p, 1)
	zero := `
# HELP maas_sidecar_events_oldest_undelivered_age_seconds Age of the oldest lifecycle event not yet delivered; 0 when none waits.
# TYPE maas_sidecar_events_oldest_undelivered_age_seconds gauge
maas_sidecar_events_oldest_undelivered_age_seconds 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(zero), "maas_sidecar_events_oldest_undelivered_age_seconds"); err != nil {
		t.Fatal(err)
	}
}
