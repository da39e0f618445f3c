package metrics

import "github.com/prometheus/client_golang/prometheus"

// RepairOutcomes are the outcome label values of repair runs: the node
// back to active, repair_required (a part failed), or the run failed or
// cancelled without a verdict; anything else counts as "failed".
var RepairOutcomes = []string{"active", "repair_required", "failed", "cancelled"}

// Repairs counts repair runs by outcome. A nil *Repairs records nothing.
type Repairs struct{ ended *prometheus.CounterVec }

// NewRepairs registers the repair counter with reg.
func NewRepairs(reg prometheus.Registerer) *Repairs {
	r := &Repairs{ended: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_repair_runs_total",
		Help: "Repair runs that ended, by outcome (active, repair_required, failed, cancelled)."}, []string{"outcome"})}
	for _, o := range RepairOutcomes {
		r.ended.WithLabelValues(o)
	}
	reg.MustRegister(r.ended)
	return r
}

// RepairEnded counts one repair run that ended with outcome.
func (r *Repairs) RepairEnded(outcome string) {
	if r == nil {
		return
	}
	switch outcome {
	case "active", "repair_required", "cancelled":
	default:
		outcome = "failed"
	}
	r.ended.WithLabelValues(outcome).Inc()
}
