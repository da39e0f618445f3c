package notifyfwd

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Reasons a hint or notification is dropped, the label of
// maas_sidecar_notify_forward_dropped_total.
const (
	dropNotSystemID = "not_system_id" // the payload is not a MAAS system id
	dropPendingFull = "pending_full"  // MaxPending machines are being debounced
	dropQueueFull   = "queue_full"    // MaxPending machines are waiting to be POSTed
	dropRefused     = "refused"       // the daemon refused it for good (a 4xx other than 401, 404, 405, 409, 429)
)

var dropReasons = []string{dropNotSystemID, dropPendingFull, dropQueueFull, dropRefused}

// Metrics are the forwarder's Prometheus metrics. Labels carry no secret
// and no system id.
type Metrics struct {
	listenerUp   prometheus.Gauge
	delivered    prometheus.Counter
	dropped      *prometheus.CounterVec
	retries      prometheus.Counter
	lastDelivery prometheus.Gauge
}

// NewMetrics registers the forwarder's metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		listenerUp: prometheus.NewGauge(prometheus.GaugeOpts{Name: "maas_sidecar_notify_forward_listener_up",
			Help: "1 while LISTEN holds on the region database, else 0."}),
		delivered: prometheus.NewCounter(prometheus.CounterOpts{Name: "maas_sidecar_notify_forward_delivered_total",
			Help: "Hints the daemon took (2xx, or 409: it had the id), each hint of a batch counted."}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_notify_forward_dropped_total",
			Help: "Notifications or webhooks dropped, by reason (not_system_id, pending_full, queue_full, refused)."},
			[]string{"reason"}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{Name: "maas_sidecar_notify_forward_retries_total",
			Help: "Failed webhook POSTs that will be tried again (transport error, 5xx, 429, 401, 404, 405, 3xx)."}),
		lastDelivery: prometheus.NewGauge(prometheus.GaugeOpts{Name: "maas_sidecar_notify_forward_last_delivery_timestamp_seconds",
			Help: "Unix time of the last webhook the daemon took; 0 before the first."}),
	}
	for _, r := range dropReasons {
		m.dropped.WithLabelValues(r)
	}
	reg.MustRegister(m.listenerUp, m.delivered, m.dropped, m.retries, m.lastDelivery)
	return m
}

func (m *Metrics) drop(reason string) { m.dropped.WithLabelValues(reason).Inc() }

func (m *Metrics) deliveredAt(t time.Time, n int) {
	m.delivered.Add(float64(n))
	m.lastDelivery.Set(float64(t.UnixNano()) / 1e9)
}

func (m *Metrics) listening(up bool) {
	v := 0.0
	if up {
		v = 1
	}
	m.listenerUp.Set(v)
}
