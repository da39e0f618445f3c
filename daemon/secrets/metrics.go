package secrets

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Metrics counts Vault requests by operation and outcome. Labels are
// bounded: read, write, login or renew, and ok or an error code; never a
// path or a value.
type Metrics struct {
	requests *prometheus.CounterVec
	sealed   prometheus.Gauge
}

// metricOps are the values of the op label.
var metricOps = []string{"read", "write", "login", "renew"}

// NewMetrics registers the Vault metrics with reg, every op and result at
// zero so that an error rate exists before the first error.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{requests: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "maas_sidecar_vault_requests_total",
		Help: "Vault requests by operation and result (ok or an error code).",
	}, []string{"op", "result"}),
		sealed: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "maas_sidecar_vault_sealed",
			Help: "1 while Vault's last answer said it is sealed, 0 once it answers again.",
		})}
	for _, op := range metricOps {
		m.requests.WithLabelValues(op, "ok")
		for _, c := range lifecycle.Codes {
			m.requests.WithLabelValues(op, string(c))
		}
	}
	reg.MustRegister(m.requests, m.sealed)
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
	switch {
	case isSealed(err):
		m.sealed.Set(1)
	case err == nil || lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable:
		m.sealed.Set(0) // Vault answered
	}
	m.requests.WithLabelValues(op, result).Inc()
}
