package workflow

import (
	"context"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// RepairMetrics counts repair runs by how they ended (the daemon's
// metrics.Repairs satisfies it): active, repair_required, failed or
// cancelled.
type RepairMetrics interface {
	RepairEnded(outcome string)
}

// varRepairOutcome is where a repair run left its node: active or
// repair_required (lifecycle node states); unset until it decided.
const varRepairOutcome = "repair_outcome"

// Repair is the workflow of repair run r: one stage, the diagnostics of
// a quarantined node (repair_diagnostics) or the acceptance check of a
// repair_required one (repair_acceptance), each an agent task bounded by
// agent_task_timeout plus its DCGM level's bound.
func (d Deps) Repair(r lifecycle.Run) *runner.Def {
	st, run := lifecycle.StageRepairDiagnostics, d.repairDiagnostics
	if lifecycle.RepairStage(r) == lifecycle.StageRepairAcceptance {
		st, run = lifecycle.StageRepairAcceptance, d.repairAcceptance
	}
	sd := runner.StageDef{Stage: st, Run: run, Class: lifecycle.FailAgentTask, MaxAttempts: 1,
		Timeout: func(p lifecycle.SitePolicy) time.Duration {
			return p.TimeoutFor("agent_task_timeout") + repairExtra(p, r) + time.Minute
		},
		TimeoutClass: lifecycle.FailAgentTask}
	return &runner.Def{Name: "repair", Stages: []runner.StageDef{sd}, OnEnd: d.repairEnded}
}

// repairDCGM is the pseudo-mode of r's DCGM level: the repair level for
// diagnostics, the onboarding level for the acceptance check.
func repairDCGM(r lifecycle.Run) lifecycle.DecommissionMode {
	if lifecycle.RepairStage(r) == lifecycle.StageRepairAcceptance {
		return lifecycle.DCGMOnboarding
	}
	return lifecycle.DCGMRepair
}

// repairExtra is what r's validation may run beyond agent_task_timeout.
func repairExtra(p lifecycle.SitePolicy, r lifecycle.Run) time.Duration {
	dc := p.DCGMFor(repairDCGM(r), false)
	if dc.Off {
		return 0
	}
	return time.Duration(dc.TimeoutSeconds[strconv.Itoa(dc.Level)]) * time.Second
}

// repairEnded counts how a repair run ended (runner.Def.OnEnd).
func (d Deps) repairEnded(_ context.Context, run lifecycle.Run) {
	if d.Repairs == nil {
		return
	}
	switch {
	case run.Status == lifecycle.JobCompleted && run.Vars[varRepairOutcome] != "":
		d.Repairs.RepairEnded(run.Vars[varRepairOutcome])
	case run.Status == lifecycle.JobCancelled:
		d.Repairs.RepairEnded("cancelled")
	case run.Status.Failed():
		d.Repairs.RepairEnded("failed")
	}
}
