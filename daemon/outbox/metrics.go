package outbox

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Failure reasons, the bounded label of the failed-delivery counter.
const (
	ReasonStatus    = "http_status" // the receiver answered, not 2xx or 3xx
	ReasonRedirect  = "redirect"    // the receiver answered 3xx: never followed
	ReasonTransport = "transport"   // no answer: connection, TLS, timeout
	ReasonSecret    = "secret"      // the signing secret could not be read
	ReasonEncode    = "encode"      // the event could not be encoded
)

// Metrics are the poster's. A nil *Metrics records nothing.
type Metrics struct {
	delivered *prometheus.CounterVec
	failed    *prometheus.CounterVec
	oldest    prometheus.Gauge
	lastPass  prometheus.Gauge
}

// NewMetrics registers the outbox metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		delivered: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_events_delivered_total",
			Help: "Lifecycle events the control plane accepted, by event type."}, []string{"type"}),
		failed: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_events_failed_total",
			Help: "Failed lifecycle event delivery attempts (each is retried), by reason."}, []string{"reason"}),
		oldest: prometheus.NewGauge(prometheus.GaugeOpts{Name: "maas_sidecar_events_oldest_undelivered_age_seconds",
			Help: "Age of the oldest lifecycle event not yet delivered; 0 when none waits."}),
		lastPass: prometheus.NewGauge(prometheus.GaugeOpts{Name: "maas_sidecar_events_last_pass_timestamp_seconds",
			Help: "Unix time of the poster's last pass that could read the outbox."}),
	}
	for _, r := range []string{ReasonStatus, ReasonRedirect, ReasonTransport, ReasonSecret, ReasonEncode} {
		m.failed.WithLabelValues(r)
	}
	reg.MustRegister(m.delivered, m.failed, m.oldest, m.lastPass)
	return m
}

func (m *Metrics) ok(t lifecycle.EventType) {
	if m != nil {
		m.delivered.WithLabelValues(string(t)).Inc()
	}
}

func (m *Metrics) fail(reason string) {
	if m != nil {
		m.failed.WithLabelValues(reason).Inc()
	}
}

func (m *Metrics) pass(now time.Time, oldest time.Duration) {
	if m != nil {
		m.oldest.Set(oldest.Seconds())
		m.lastPass.Set(float64(now.UnixNano()) / 1e9)
	}
}
