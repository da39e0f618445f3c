package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Leases records this daemon's view of the site leases; pass its Observe
// as the runner's Options.OnLease.
type Leases struct {
	held      *prometheus.GaugeVec
	acquired  *prometheus.GaugeVec
	renewed   *prometheus.GaugeVec
	takeovers *prometheus.CounterVec
	losses    *prometheus.CounterVec
}

// NewLeases registers the lease metrics with reg.
func NewLeases(reg prometheus.Registerer) *Leases {
	l := &Leases{
		held: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_site_lease_held",
			Help: "1 while this daemon holds the site's lease and drives its runs, 0 while another daemon holds it."}, []string{"site"}),
		acquired: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_site_lease_acquired_timestamp_seconds",
			Help: "When this daemon acquired the site lease it holds (lease age: time() minus this)."}, []string{"site"}),
		renewed: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_site_lease_renewed_timestamp_seconds",
			Help: "When this daemon last claimed or renewed the site lease it holds."}, []string{"site"}),
		takeovers: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_site_lease_takeovers_total",
			Help: "Site leases this daemon took from another daemon whose lease had expired."}, []string{"site"}),
		losses: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_site_lease_losses_total",
			Help: "Site leases this daemon lost (superseded, refused at renewal, or lapsed by its clock)."}, []string{"site"}),
	}
	reg.MustRegister(l.held, l.acquired, l.renewed, l.takeovers, l.losses)
	return l
}

// Observe records one lease event.
func (l *Leases) Observe(e runner.LeaseEvent) {
	at := float64(e.At.UnixNano()) / 1e9
	switch e.Kind {
	case runner.LeaseAcquired, runner.LeaseTakeover:
		l.held.WithLabelValues(e.Site).Set(1)
		l.acquired.WithLabelValues(e.Site).Set(at)
		l.renewed.WithLabelValues(e.Site).Set(at)
		l.takeovers.WithLabelValues(e.Site)
		l.losses.WithLabelValues(e.Site)
		if e.Kind == runner.LeaseTakeover {
			l.takeovers.WithLabelValues(e.Site).Inc()
		}
	case runner.LeaseRenewed:
		l.renewed.WithLabelValues(e.Site).Set(at)
	case runner.LeaseLost, runner.LeaseReleased, runner.LeaseStandby:
		l.held.WithLabelValues(e.Site).Set(0)
		l.acquired.DeleteLabelValues(e.Site)
		l.renewed.DeleteLabelValues(e.Site)
		l.takeovers.WithLabelValues(e.Site)
		l.losses.WithLabelValues(e.Site)
		if e.Kind == runner.LeaseLost {
			l.losses.WithLabelValues(e.Site).Inc()
		}
	}
}
