package health

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Metrics are the health service's. A nil *Metrics records nothing.
type Metrics struct {
	nodes       *prometheus.GaugeVec
	faults      *prometheus.CounterVec
	reports     prometheus.Counter
	quarantines prometheus.Counter
	sweep       prometheus.Gauge
}

// NewMetrics registers the health metrics with reg, every verdict and
// fault kind at zero.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		nodes: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_node_health",
			Help: "Active nodes by health verdict (healthy, degraded, unknown, critical)."}, []string{"verdict"}),
		faults: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_node_faults_total",
			Help: "Faults the GPU cloud reported on nodes, by kind (retries of one fault count once)."}, []string{"kind"}),
		reports: prometheus.NewCounter(prometheus.CounterOpts{Name: "maas_sidecar_node_health_reports_total",
			Help: "Agents' health reports judged (replays not counted)."}),
		quarantines: prometheus.NewCounter(prometheus.CounterOpts{Name: "maas_sidecar_node_health_quarantines_total",
			Help: "Nodes quarantined by a critical health verdict or a reported fault."}),
		sweep: prometheus.NewGauge(prometheus.GaugeOpts{Name: "maas_sidecar_node_health_last_sweep_timestamp_seconds",
			Help: "When the health service last looked for silent nodes and counted verdicts (Unix seconds)."}),
	}
	for _, v := range lifecycle.HealthVerdicts {
		m.nodes.WithLabelValues(string(v))
	}
	for _, k := range lifecycle.FaultKinds {
		m.faults.WithLabelValues(k)
	}
	reg.MustRegister(m.nodes, m.faults, m.reports, m.quarantines, m.sweep)
	return m
}

func (m *Metrics) judged() {
	if m != nil {
		m.reports.Inc()
	}
}

func (m *Metrics) quarantined() {
	if m != nil {
		m.quarantines.Inc()
	}
}

func (m *Metrics) fault(kind string) {
	if m != nil {
		m.faults.WithLabelValues(kind).Inc()
	}
}

// counted sets the verdict gauge from one count and the sweep's time.
func (m *Metrics) counted(by map[lifecycle.HealthVerdict]int, at float64) {
	if m == nil {
		return
	}
	for _, v := range lifecycle.HealthVerdicts {
		m.nodes.WithLabelValues(string(v)).Set(float64(by[v]))
	}
	m.sweep.Set(at)
}
