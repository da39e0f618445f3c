package ipmi

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Every op is registered at zero under ok and every error code, so that
// an error rate exists before the first operation; an operation counts
// under its result.
func TestMetricsRegisteredAtZero(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	if n, want := testutil.CollectAndCount(reg, "maas_sidecar_bmc_operations_total"), 6*(1+len(lifecycle.Codes)); n != want {
		t.Errorf("%d operation series, want %d", n, want)
	}
	if n := testutil.CollectAndCount(reg, "maas_sidecar_bmc_retries_total"); n != 6 {
		t.Errorf("%d retry series, want 6", n)
	}
	m.done("power_cycle", lifecycle.Errorf(lifecycle.CodeUnavailable, "ipmi.power_cycle", "timeout"))
	m.done("boot_pxe", nil)
	for _, c := range []struct {
		op, result string
		want       float64
	}{{"power_cycle", "unavailable", 1}, {"power_cycle", "ok", 0}, {"boot_pxe", "ok", 1}, {"boot_disk", "ok", 0}} {
		if got := testutil.ToFloat64(m.ops.WithLabelValues(c.op, c.result)); got != c.want {
			t.Errorf("operations{%s,%s} = %v, want %v", c.op, c.result, got, c.want)
		}
	}
}
