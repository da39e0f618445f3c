package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Stages records ended stage attempts; pass its Observe as the runner's
// Options.Observe.
type Stages struct {
	duration *prometheus.HistogramVec
	failures *prometheus.CounterVec
	decoms   *prometheus.CounterVec
}

// NewStages registers the stage metrics with reg.
func NewStages(reg prometheus.Registerer) *Stages {
	s := &Stages{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "maas_sidecar_stage_duration_seconds",
			Help:    "Duration of ended stage attempts, by workflow, stage and outcome (succeeded, skipped, failed).",
			Buckets: []float64{0.1, 1, 5, 30, 60, 300, 900, 1800, 3600, 7200}}, []string{"workflow", "stage", "outcome"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_stage_failures_total",
			Help: "Failed stage attempts by failure class."}, []string{"failure_class"}),
		decoms: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "maas_sidecar_decommissions_total",
			Help: "Decommission runs that ended a stage in a landing state, by mode and outcome (completed, failed_retryable, failed_manual_intervention, ...)."},
			[]string{"mode", "outcome"}),
	}
	for _, c := range lifecycle.FailureClasses {
		s.failures.WithLabelValues(string(c))
	}
	for _, m := range lifecycle.DecommissionModes {
		for _, o := range []lifecycle.JobState{lifecycle.JobCompleted, lifecycle.JobFailedRetryable, lifecycle.JobFailedManualIntervention} {
			s.decoms.WithLabelValues(string(m), string(o))
		}
	}
	reg.MustRegister(s.duration, s.failures, s.decoms)
	return s
}

// Observe records one ended attempt.
func (s *Stages) Observe(o runner.StageObservation) {
	s.duration.WithLabelValues(o.Workflow, string(o.Stage), string(o.Outcome)).Observe(o.Duration.Seconds())
	if o.Outcome == lifecycle.EventFailed {
		class := o.FailureClass
		if class == "" {
			class = lifecycle.FailStateAmbiguity
		}
		s.failures.WithLabelValues(string(class)).Inc()
	}
	if o.Kind == lifecycle.RunDecommission && o.Ended && o.Mode.Stages() != nil {
		s.decoms.WithLabelValues(string(o.Mode), string(o.RunStatus)).Inc()
	}
}

// Commits records the store's write-transaction latency; pass its Observe
// as the bolt store's Options.OnCommit.
type Commits struct{ h prometheus.Histogram }

// NewCommits registers the store commit histogram with reg.
func NewCommits(reg prometheus.Registerer) *Commits {
	c := &Commits{h: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "maas_sidecar_store_commit_duration_seconds",
		Help:    "Duration of store write transactions, fsync included.",
		Buckets: []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1}})}
	reg.MustRegister(c.h)
	return c
}

// Observe records one commit.
func (c *Commits) Observe(d time.Duration) { c.h.Observe(d.Seconds()) }
