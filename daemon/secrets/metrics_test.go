package secrets

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Every op is registered at zero under ok and every error code, so that
// an error rate exists before the first request; a request counts under
// its result.
func TestMetricsRegisteredAtZero(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	if n, want := testutil.CollectAndCount(reg, "maas_sidecar_vault_requests_total"), 4*(1+len(lifecycle.Codes)); n != want {
		t.Errorf("%d series, want %d", n, want)
	}
	m.done("read", lifecycle.Errorf(lifecycle.CodeForbidden, "secrets.read", "denied"))
	m.done("renew", nil)
	for _, c := range []struct {
		op, result string
		want       float64
	}{{"read", "forbidden", 1}, {"read", "ok", 0}, {"renew", "ok", 1}, {"login", "unavailable", 0}} {
		if got := testutil.ToFloat64(m.requests.WithLabelValues(c.op, c.result)); got != c.want {
			t.Errorf("requests{%s,%s} = %v, want %v", c.op, c.result, got, c.want)
		}
	}
}
