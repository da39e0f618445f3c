package console

import "github.com/prometheus/client_golang/prometheus"

// Sign-in refusal reasons, the bounded label of the refusal counter.
const (
	RefusedRateLimited = "rate_limited" // too many attempts from one address: 429
	RefusedBadToken    = "bad_token"    // unknown or revoked token: 401
	RefusedCSRF        = "csrf"         // missing or wrong form token, or another origin: 403
	RefusedFull        = "sessions_full"
)

// Metrics are the console's. A nil *Metrics records nothing.
type Metrics struct {
	refused *prometheus.CounterVec
}

// NewMetrics registers the console metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_console_signin_refused_total",
		Help: "Console sign-ins refused, by reason (rate_limited: too many attempts from one address)."}, []string{"reason"})}
	for _, r := range []string{RefusedRateLimited, RefusedBadToken, RefusedCSRF, RefusedFull} {
		m.refused.WithLabelValues(r)
	}
	reg.MustRegister(m.refused)
	return m
}

func (m *Metrics) refuse(reason string) {
	if m != nil {
		m.refused.WithLabelValues(reason).Inc()
	}
}
