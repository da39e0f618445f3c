package outbox_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/outbox"
	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// A receiver that answers 307 is a failed delivery, counted under
// reason "redirect" and retried; the signed event never reaches the host
// the redirect names, even when the caller's client would follow it.
func TestRedirectIsFailedDelivery(t *testing.T) {
	e := newEnv(t)
	var target atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { target.Add(1) }))
	t.Cleanup(elsewhere.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/steal", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	reg := prometheus.NewRegistry()
	p := outbox.New(outbox.Options{Store: e.st, URL: redirector.URL, Secret: outbox.SecretFile(e.secret), Clock: e.clock,
		Client: &http.Client{Timeout: 5 * time.Second}, Rand: func() float64 { return 0 },
		Backoff: backoff.Policy{Initial: 2 * time.Second, Max: time.Minute}, Metrics: outbox.NewMetrics(reg)})
	e.add("a1", "n1")
	e.pass(p, 1)
	e.clock.Advance(time.Minute)
	e.pass(p, 1)
	if n := target.Load(); n != 0 {
		t.Fatalf("the redirect target was called %d times, want never", n)
	}
	if got := e.event("a1"); got.DeliveredAt != nil || got.Attempts != 2 || !strings.Contains(got.LastError, "307") {
		t.Fatalf("a1 = %+v, want undelivered after 2 failed attempts naming the 307", got)
	}
	want := `
# HELP maas_sidecar_events_failed_total Failed lifecycle event delivery attempts (each is retried), by reason.
# TYPE maas_sidecar_events_failed_total counter
maas_sidecar_events_failed_total{reason="encode"} 0
maas_sidecar_events_failed_total{reason="http_status"} 0
maas_sidecar_events_failed_total{reason="redirect"} 2
maas_sidecar_events_failed_total{reason="secret"} 0
maas_sidecar_events_failed_total{reason="transport"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "maas_sidecar_events_failed_total"); err != nil {
		t.Fatal(err)
	}
}
