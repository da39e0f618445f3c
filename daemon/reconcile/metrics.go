package reconcile

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Metrics are the reconciler's own counters. Labels are bounded: drift
// rule and severity, action, node state, site id. A nil *Metrics records
// nothing.
type Metrics struct {
	drifts    *prometheus.CounterVec
	actions   *prometheus.CounterVec
	beats     *prometheus.CounterVec
	lastPass  *prometheus.GaugeVec
	unmanaged *prometheus.GaugeVec
}

// NewMetrics registers the reconciler metrics with reg, every drift rule,
// action and heartbeat transition at zero.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		drifts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_drift_detected_total",
			Help: "Drifts opened between MAAS and the node inventory, by rule and severity."}, []string{"rule", "severity"}),
		actions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_reconcile_actions_total",
			Help: "Actions the reconciler took (quarantine, update_host, reseed_hw_sync, enable_hw_sync, release_power_off)."}, []string{"action"}),
		beats: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_heartbeat_transitions_total",
			Help: "Nodes moved by agent contact, by the state they entered (offline or active)."}, []string{"to"}),
		lastPass: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_reconcile_last_pass_timestamp_seconds",
			Help: "Unix time of the last full reconciliation pass of a site."}, []string{"site"}),
		unmanaged: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_unmanaged_machines",
			Help: "MAAS machines bound to no node at the last full pass (no action taken)."}, []string{"site"}),
	}
	for _, r := range lifecycle.DriftRules {
		m.drifts.WithLabelValues(string(r), string(Severity(r)))
	}
	for _, a := range []Action{ActQuarantine, ActUpdateHost, ActReseedHWSync, ActEnableHWSync, ActReleasePowerOff} {
		m.actions.WithLabelValues(string(a))
	}
	for _, to := range []lifecycle.NodeState{lifecycle.NodeOffline, lifecycle.NodeActive} {
		m.beats.WithLabelValues(string(to))
	}
	reg.MustRegister(m.drifts, m.actions, m.beats, m.lastPass, m.unmanaged)
	return m
}

func (m *Metrics) detected(v Verdict) {
	if m != nil {
		m.drifts.WithLabelValues(string(v.Rule), string(v.Severity)).Inc()
	}
}

func (m *Metrics) action(a Action) {
	if m != nil {
		m.actions.WithLabelValues(string(a)).Inc()
	}
}

func (m *Metrics) heartbeat(to lifecycle.NodeState) {
	if m != nil {
		m.beats.WithLabelValues(string(to)).Inc()
	}
}

func (m *Metrics) pass(site string, rep Report, at time.Time) {
	if m != nil {
		m.lastPass.WithLabelValues(site).Set(float64(at.UnixNano()) / 1e9)
		m.unmanaged.WithLabelValues(site).Set(float64(rep.Unmanaged))
	}
}
