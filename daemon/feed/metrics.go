package feed

import (
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the feed's. Labels are bounded: site id, source (webhook,
// events, resync, listen), rejection reason, listener reason and channel. A nil *Metrics records nothing.
type Metrics struct {
	received, duplicates prometheus.Counter
	rejected             *prometheus.CounterVec
	batch                prometheus.Histogram
	depth                atomic.Pointer[func() int] // the ingest queue's length, set by New
	hintsRead            *prometheus.CounterVec
	lagSeconds           *prometheus.GaugeVec
	lastSuccess          *prometheus.GaugeVec
	errors               *prometheus.CounterVec
	maasUp               *prometheus.GaugeVec
	listen               listenMetrics
}

// NewMetrics registers the feed metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		received: prometheus.NewCounter(prometheus.CounterOpts{Name: "maas_sidecar_webhook_received_total",
			Help: "Webhook requests received, whatever their outcome."}),
		duplicates: prometheus.NewCounter(prometheus.CounterOpts{Name: "maas_sidecar_webhook_duplicates_total",
			Help: "Webhooks whose event id was already received (nothing stored again)."}),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_webhook_rejected_total",
			Help: "Webhooks refused, by reason."}, []string{"reason"}),
		batch: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "maas_sidecar_webhook_commit_batch_size",
			Help:    "Events stored per inbox transaction (one fsync each) by the group committer; each hint of a batch webhook counts.",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}}),
		hintsRead: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_feed_machines_read_total",
			Help: "Machines re-read from MAAS because of a hint, by source (webhook, listen, events, resync)."}, []string{"source"}),
		lagSeconds: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_feed_lag_seconds",
			Help: "Age of the newest MAAS change when the feed processed it, by site and source."}, []string{"site", "source"}),
		lastSuccess: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_feed_last_success_timestamp_seconds",
			Help: "Unix time of the last successful events poll or resync, and of a listener's last catch-up after it connected (source listen), by site and source."}, []string{"site", "source"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_feed_errors_total",
			Help: "Failed events polls and resyncs, by site and source."}, []string{"site", "source"}),
		maasUp: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_maas_up",
			Help: "1 when the site's MAAS answered the last events request, 0 when it could not be reached (connection, timeout, 5xx); only on the daemon that follows the site."}, []string{"site"}),
	}
	for _, r := range []string{ReasonMissingSite, ReasonUnknownSite, ReasonUnsigned, ReasonMalformedSignature,
		ReasonStale, ReasonBadSignature, ReasonTooLarge, ReasonMalformedBody, ReasonUnavailable, ReasonQueueFull} {
		m.rejected.WithLabelValues(r)
	}
	m.listen = newListenMetrics(reg)
	queued := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "maas_sidecar_webhook_queue_depth",
		Help: "Webhooks waiting for the group committer; at the queue's size (1024) more are refused with 503 (reason queue_full)."},
		func() float64 {
			if f := m.depth.Load(); f != nil {
				return float64((*f)())
			}
			return 0
		})
	reg.MustRegister(queued, m.received, m.duplicates, m.rejected, m.batch, m.hintsRead, m.lagSeconds, m.lastSuccess, m.errors, m.maasUp)
	return m
}

func (m *Metrics) webhook(reason string) {
	if m == nil {
		return
	}
	m.received.Inc()
	switch reason {
	case "":
	case ReasonDuplicate:
		m.duplicates.Inc()
	default:
		m.rejected.WithLabelValues(reason).Inc()
	}
}

// committed records one inbox transaction of n webhooks.
func (m *Metrics) committed(n int) {
	if m != nil {
		m.batch.Observe(float64(n))
	}
}

func (m *Metrics) hints(source string, n int) {
	if m != nil {
		m.hintsRead.WithLabelValues(source).Add(float64(n))
	}
}

func (m *Metrics) lag(site, source string, newest, now time.Time) {
	if m != nil && !newest.IsZero() {
		m.lagSeconds.WithLabelValues(site, source).Set(max(now.Sub(newest).Seconds(), 0))
	}
}

func (m *Metrics) succeeded(site, source string, at time.Time) {
	if m != nil {
		m.lastSuccess.WithLabelValues(site, source).Set(float64(at.UnixNano()) / 1e9)
	}
}

// following registers the site's errors of source at zero, so that an
// error rate exists before the first failure.
func (m *Metrics) following(site, source string) {
	if m != nil {
		m.errors.WithLabelValues(site, source)
	}
}

func (m *Metrics) failed(site, source string) {
	if m != nil {
		m.errors.WithLabelValues(site, source).Inc()
	}
}

// up records whether the site's MAAS answered.
func (m *Metrics) up(site string, answered bool) {
	if m == nil {
		return
	}
	v := 0.0
	if answered {
		v = 1
	}
	m.maasUp.WithLabelValues(site).Set(v)
}

// unfollowed drops the site's MAAS reachability: another daemon follows
// it now, or it was deleted.
func (m *Metrics) unfollowed(site string) {
	if m != nil {
		m.maasUp.DeleteLabelValues(site)
	}
}
