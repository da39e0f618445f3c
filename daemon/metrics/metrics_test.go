package metrics_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/metrics"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// A decommission is counted once, by mode and outcome, when an attempt
// ends its run; onboardings and attempts that keep the run going are not.
func TestDecommissionOutcomes(t *testing.T) {
	reg := prometheus.NewRegistry()
	s := metrics.NewStages(reg)
	for _, o := range []runner.StageObservation{
		{Workflow: "decommission", Kind: lifecycle.RunDecommission, Mode: lifecycle.ModeSoftReset, Stage: lifecycle.StageScrubGPU,
			Outcome: lifecycle.EventSucceeded, RunStatus: lifecycle.JobRunning},
		{Workflow: "decommission", Kind: lifecycle.RunDecommission, Mode: lifecycle.ModeSoftReset, Stage: lifecycle.StageEnableNode,
			Outcome: lifecycle.EventSucceeded, RunStatus: lifecycle.JobCompleted, Ended: true},
		{Workflow: "decommission", Kind: lifecycle.RunDecommission, Mode: lifecycle.ModeReimage, Stage: lifecycle.StageReleaseMaasNode,
			Outcome: lifecycle.EventFailed, FailureClass: lifecycle.FailUpstreamTransient, RunStatus: lifecycle.JobFailedRetryable, Ended: true},
		{Workflow: "onboarding", Kind: lifecycle.RunOnboarding, Stage: lifecycle.StageLoadSiteConfig,
			Outcome: lifecycle.EventSucceeded, RunStatus: lifecycle.JobCompleted, Ended: true},
	} {
		s.Observe(o)
	}
	want := map[[2]string]float64{{"soft_reset", "completed"}: 1, {"reimage", "failed_retryable"}: 1,
		{"reimage", "completed"}: 0, {"full_decommission", "failed_manual_intervention"}: 0}
	for k, v := range want {
		if got := testutil.ToFloat64(counter(t, reg, "maas_sidecar_decommissions_total", map[string]string{"mode": k[0], "outcome": k[1]})); got != v {
			t.Errorf("decommissions_total%v = %v, want %v", k, got, v)
		}
	}
}

func TestValidationAndScrubFailures(t *testing.T) {
	reg := prometheus.NewRegistry()
	d := metrics.NewDecommissions(reg)
	d.ValidationFailed(lifecycle.ModeSoftReset)
	d.ValidationFailed("bogus")
	d.ScrubFailed("nvidia")
	d.ScrubFailed("amd")
	d.ScrubFailed("amd")
	d.ScrubFailed("intel; rm -rf")
	var nilD *metrics.Decommissions
	nilD.ScrubFailed("nvidia") // a nil observer records nothing and does not panic
	want := `
# HELP maas_sidecar_gpu_scrub_failures_total GPU scrubs that failed, by GPU vendor (nvidia, amd, other).
# TYPE maas_sidecar_gpu_scrub_failures_total counter
maas_sidecar_gpu_scrub_failures_total{vendor="amd"} 2
maas_sidecar_gpu_scrub_failures_total{vendor="nvidia"} 1
maas_sidecar_gpu_scrub_failures_total{vendor="other"} 1
# HELP maas_sidecar_decommission_validation_failures_total node.validate_clean runs that found residue (the node is quarantined), by decommission mode.
# TYPE maas_sidecar_decommission_validation_failures_total counter
maas_sidecar_decommission_validation_failures_total{mode="full_decommission"} 0
maas_sidecar_decommission_validation_failures_total{mode="reimage"} 0
maas_sidecar_decommission_validation_failures_total{mode="soft_reset"} 1
maas_sidecar_decommission_validation_failures_total{mode="storage_cleanup"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}
}

// counter finds one labelled counter in reg.
func counter(t *testing.T, reg *prometheus.Registry, name string, labels map[string]string) prometheus.Collector {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			match := true
			for _, lp := range m.GetLabel() {
				if v, ok := labels[lp.GetName()]; ok && v != lp.GetValue() {
					match = false
				}
			}
			if match {
				return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "x", Help: "x"}, m.GetCounter().GetValue)
			}
		}
	}
	t.Fatalf("%s%v not found", name, labels)
	return nil
}

func TestRepairOutcomes(t *testing.T) {
	reg := prometheus.NewRegistry()
	r := metrics.NewRepairs(reg)
	r.RepairEnded("active")
	r.RepairEnded("repair_required")
	r.RepairEnded("repair_required")
	r.RepairEnded("nonsense")
	var nilR *metrics.Repairs
	nilR.RepairEnded("active") // a nil observer records nothing and does not panic
	want := `
# HELP maas_sidecar_repair_runs_total Repair runs that ended, by outcome (active, repair_required, failed, cancelled).
# TYPE maas_sidecar_repair_runs_total counter
maas_sidecar_repair_runs_total{outcome="active"} 1
maas_sidecar_repair_runs_total{outcome="cancelled"} 0
maas_sidecar_repair_runs_total{outcome="failed"} 1
maas_sidecar_repair_runs_total{outcome="repair_required"} 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}
}
