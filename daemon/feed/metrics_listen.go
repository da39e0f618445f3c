package feed

import "github.com/prometheus/client_golang/prometheus"

// listenMetrics are the LISTEN source's, by site (and bounded reason or
// channel); they exist only for sites with a listener on this daemon.
type listenMetrics struct {
	up         *prometheus.GaugeVec
	reconnects *prometheus.CounterVec
	errors     *prometheus.CounterVec
	notified   *prometheus.CounterVec
	dropped    *prometheus.CounterVec
}

func newListenMetrics(reg prometheus.Registerer) listenMetrics {
	m := listenMetrics{
		up: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_feed_listener_up",
			Help: "1 while the site's region database listener is connected and listening, 0 while it is not; only for sites with notify set, on the daemon that follows them."}, []string{"site"}),
		reconnects: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_feed_listener_reconnects_total",
			Help: "Times the site's listener listened again after a lost or failed connection (each followed by a catch-up through the events cursor)."}, []string{"site"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_feed_listener_errors_total",
			Help: "Failed connects and lost connections of the site's listener, by reason (config, unreachable, auth, no_connect, no_database, lost, other)."}, []string{"site", "reason"}),
		notified: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_feed_notifications_total",
			Help: "Notifications received from the site's region database, by channel."}, []string{"site", "channel"}),
	}
	m.dropped = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_feed_notifications_dropped_total",
		Help: "Notifications dropped because 10,000 machines of the site were already waiting (a flood; the events cursor covers real changes)."}, []string{"site"})
	reg.MustRegister(m.up, m.reconnects, m.errors, m.notified, m.dropped)
	return m
}

func (m *Metrics) listenerUp(site string) {
	if m != nil {
		m.listen.up.WithLabelValues(site).Set(1)
	}
}

// listenerDown also registers the site's reconnects at zero.
func (m *Metrics) listenerDown(site string) {
	if m != nil {
		m.listen.up.WithLabelValues(site).Set(0)
		m.listen.reconnects.WithLabelValues(site)
	}
}

func (m *Metrics) listenerReconnected(site string) {
	if m != nil {
		m.listen.reconnects.WithLabelValues(site).Inc()
	}
}

func (m *Metrics) listenerFailed(site, reason string) {
	if m != nil {
		m.listen.errors.WithLabelValues(site, reason).Inc()
	}
}

// listenerErrorsAtZero registers the site's listener errors at zero for
// each reason.
func (m *Metrics) listenerErrorsAtZero(site string, reasons []string) {
	if m != nil {
		for _, r := range reasons {
			m.listen.errors.WithLabelValues(site, r)
		}
	}
}

func (m *Metrics) notified(site, channel string) {
	if m != nil {
		m.listen.notified.WithLabelValues(site, channel).Inc()
	}
}

func (m *Metrics) listenDropped(site string) {
	if m != nil {
		m.listen.dropped.WithLabelValues(site).Inc()
	}
}

// unlistened drops the site's listener state: its listener stopped.
func (m *Metrics) unlistened(site string) {
	if m != nil {
		m.listen.up.DeleteLabelValues(site)
	}
}
