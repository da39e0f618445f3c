package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Vendors are the GPU vendor label values; anything else is "other".
var Vendors = []string{"nvidia", "amd", "other"}

// Decommissions records what the decommission workflows learn from the
// agent: validations that found tenant residue and GPU scrubs that
// failed. A nil *Decommissions records nothing.
type Decommissions struct {
	validation *prometheus.CounterVec
	scrub      *prometheus.CounterVec
}

// NewDecommissions registers the decommission counters with reg.
func NewDecommissions(reg prometheus.Registerer) *Decommissions {
	d := &Decommissions{
		validation: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_decommission_validation_failures_total",
			Help: "node.validate_clean runs that found residue (the node is quarantined), by decommission mode."}, []string{"mode"}),
		scrub: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_gpu_scrub_failures_total",
			Help: "GPU scrubs that failed, by GPU vendor (nvidia, amd, other)."}, []string{"vendor"}),
	}
	for _, m := range lifecycle.DecommissionModes {
		d.validation.WithLabelValues(string(m))
	}
	for _, v := range Vendors {
		d.scrub.WithLabelValues(v)
	}
	reg.MustRegister(d.validation, d.scrub)
	return d
}

// ValidationFailed counts one failed clean validation of a decommission
// of mode m (an unknown mode counts under its name only if it is one of
// lifecycle.DecommissionModes; otherwise it is dropped).
func (d *Decommissions) ValidationFailed(m lifecycle.DecommissionMode) {
	if d != nil && m.Stages() != nil {
		d.validation.WithLabelValues(string(m)).Inc()
	}
}

// ScrubFailed counts one failed GPU scrub on vendor's GPUs ("nvidia",
// "amd"; any other value counts as "other", keeping the label bounded).
func (d *Decommissions) ScrubFailed(vendor string) {
	if d == nil {
		return
	}
	if vendor != "nvidia" && vendor != "amd" {
		vendor = "other"
	}
	d.scrub.WithLabelValues(vendor).Inc()
}
