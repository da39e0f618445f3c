package secrets

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Metrics counts Vault requests by operation and outcome. Labels are
// bounded: read, write, login or renew, and ok or an error code; never a
// path or a value.
type Metrics struct{ requests *prometheus.CounterVec }

// NewMetrics registers the Vault metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{requests: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "maas_sidecar_vault_requests_total",
		Help: "Vault requests by operation and result (ok or an error code).",
	}, []string{"op", "result"})}
	reg.MustRegister(m.requests)
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
	m.requests.WithLabelValues(op, result).Inc()
}
