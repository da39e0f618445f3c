package ipmi

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Metrics counts BMC operations by operation and outcome. Labels are
// bounded: the operation name and an error code, never a host or a value.
type Metrics struct {
	ops     *prometheus.CounterVec
	retries *prometheus.CounterVec
}

// metricOps are the values of the op label: the power reads and changes and the
// boot devices this package drives.
var metricOps = []string{"power_state", "power_" + string(ActionOn), "power_" + string(ActionOff), "power_" + string(ActionCycle),
	"boot_" + string(BootPXE), "boot_" + string(BootDisk)}

// NewMetrics registers the BMC metrics with reg, every op and result at
// zero so that an error rate exists before the first error.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		ops: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "maas_sidecar_bmc_operations_total",
			Help: "BMC operations by operation and result (ok or an error code).",
		}, []string{"op", "result"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "maas_sidecar_bmc_retries_total",
			Help: "Retries of BMC operations after a transient error.",
		}, []string{"op"}),
	}
	for _, op := range metricOps {
		m.ops.WithLabelValues(op, "ok")
		for _, c := range lifecycle.Codes {
			m.ops.WithLabelValues(op, string(c))
		}
		m.retries.WithLabelValues(op)
	}
	reg.MustRegister(m.ops, m.retries)
	return m
}

func (m *Metrics) done(op string, err error) {
	if m == nil {
		return
	}
	result := "ok"
	if err != nil {
		result = string(lifecycle.ErrorCode(err))
	}
	m.ops.WithLabelValues(op, result).Inc()
}

func (m *Metrics) retried(op string) {
	if m != nil {
		m.retries.WithLabelValues(op).Inc()
	}
}
