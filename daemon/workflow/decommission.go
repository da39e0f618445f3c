package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Defs picks the workflow of a run: onboarding (through MAAS, or manual),
// the decommission of the run's mode, or a repair. It is the runner's Options.Defs.
func (d Deps) Defs(r lifecycle.Run) (*runner.Def, error) {
	switch r.Kind {
	case lifecycle.RunOnboarding:
		if r.OnboardingMode == lifecycle.OnboardManual {
			return d.ManualOnboarding(), nil
		}
		return d.Onboarding(), nil
	case lifecycle.RunDecommission:
		return d.Decommission(r.Mode)
	case lifecycle.RunRepair:
		return d.Repair(r), nil
	}
	return nil, lifecycle.Errorf(lifecycle.CodeInvalid, "workflow.Defs", "run %s has unknown kind %q", r.ID, r.Kind)
}

// Decommission is the workflow of a decommission of mode m (seed 001
// §5.2–§5.5) with the stage list of lifecycle.DecommissionMode.Stages. A
// reimage reuses the onboarding stages from configure_storage on, its
// deploy-failure recovery included, except that the enrollment wait
// waits for a re-enrollment of the node it keeps.
func (d Deps) Decommission(m lifecycle.DecommissionMode) (*runner.Def, error) {
	names := m.Stages()
	if names == nil {
		return nil, lifecycle.Invalid("workflow.Decommission", "mode", "unknown decommission mode %q", m)
	}
	onb := d.Onboarding()
	own := d.decomStages()
	var stages []runner.StageDef
	for _, s := range names {
		sd, ok := own[s]
		if !ok {
			sd = onb.Stages[stageIndex(onb, s)]
		}
		if s == lifecycle.StageWaitForAgentEnrollment {
			sd.Run = d.waitForReenrollment
		}
		stages = append(stages, sd)
		if s == lifecycle.StageWaitForDeployed {
			stages = append(stages, onb.Stages[stageIndex(onb, lifecycle.StageClassifyDeployFailure)],
				onb.Stages[stageIndex(onb, lifecycle.StageRecoverForDatasourceRetry)])
		}
	}
	stages[0].Run = d.started(stages[0].Run)
	last := &stages[len(stages)-1]
	last.Run = d.certified(last.Run, names)
	return &runner.Def{Name: "decommission." + string(m), Stages: stages, OnEnd: d.decomEnded}, nil
}

func stageIndex(def *runner.Def, s lifecycle.Stage) int {
	for i, sd := range def.Stages {
		if sd.Stage == s {
			return i
		}
	}
	panic("workflow: onboarding has no stage " + string(s))
}

// withDCGM gives a validation stage the bound of its DCGM diagnostic on
// top of the agent task's.
func withDCGM(s runner.StageDef) runner.StageDef {
	base := s.Timeout
	s.Timeout = func(p lifecycle.SitePolicy) time.Duration { return base(p) + p.DCGMExtra() }
	return s
}

// decomStages are the decommission's own stages, with their failure
// classes and the policy timeouts of their waits.
func (d Deps) decomStages() map[lifecycle.Stage]runner.StageDef {
	bound := func(key string) func(lifecycle.SitePolicy) time.Duration {
		return func(p lifecycle.SitePolicy) time.Duration { return p.TimeoutFor(key) }
	}
	agent := func(s lifecycle.Stage, run runner.StageFunc) runner.StageDef {
		// The stage enforces the agent timeout itself (with a message
		// naming the task); the runner's bound is the backstop.
		return runner.StageDef{Stage: s, Run: run, Class: lifecycle.FailAgentTask, MaxAttempts: 1,
			Timeout:      func(p lifecycle.SitePolicy) time.Duration { return p.TimeoutFor("agent_task_timeout") + time.Minute },
			TimeoutClass: lifecycle.FailAgentTask}
	}
	plain := func(s lifecycle.Stage, run runner.StageFunc, class lifecycle.FailureClass) runner.StageDef {
		return runner.StageDef{Stage: s, Run: run, Class: class}
	}
	defs := []runner.StageDef{
		plain(lifecycle.StageDisableNode, d.disableNode, lifecycle.FailStateAmbiguity),
		plain(lifecycle.StageForceReleaseAllocations, d.forceReleaseAllocations, lifecycle.FailStateAmbiguity),
		agent(lifecycle.StageDrainNode, d.drainNode),
		agent(lifecycle.StageCleanupStorage, d.cleanupStorage),
		agent(lifecycle.StageScrubGPU, d.scrubGPU),
		withDCGM(agent(lifecycle.StageValidateCleanNode, d.validateCleanNode)),
		{Stage: lifecycle.StageReleaseMaasNode, Run: d.releaseMaasNode, Class: lifecycle.FailStateAmbiguity,
			Timeout: bound("release_timeout"), TimeoutClass: lifecycle.FailStateAmbiguity},
		{Stage: lifecycle.StagePowerOffMaasNode, Run: d.powerOffMaasNode, Class: lifecycle.FailBMCPower,
			Timeout:      func(p lifecycle.SitePolicy) time.Duration { return p.TimeoutFor("power_off_timeout") + time.Minute },
			TimeoutClass: lifecycle.FailBMCPower},
		plain(lifecycle.StageRetireNode, d.retireNode, lifecycle.FailStateAmbiguity),
		plain(lifecycle.StageRemoveNodeRecord, d.removeNodeRecord, lifecycle.FailAgentTask),
		plain(lifecycle.StageCleanupSecrets, d.cleanupSecrets, lifecycle.FailStateAmbiguity),
		plain(lifecycle.StageRemoveMaasRecord, d.removeMaasRecord, lifecycle.FailStateAmbiguity),
		plain(lifecycle.StageEnableNode, d.enableNode, lifecycle.FailStateAmbiguity),
	}
	out := map[lifecycle.Stage]runner.StageDef{}
	for _, sd := range defs {
		out[sd.Stage] = sd
	}
	return out
}

// started wraps a decommission's first stage: node.decommission.started
// is published before it acts (once: the event id is the run's).
func (d Deps) started(run runner.StageFunc) runner.StageFunc {
	return func(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
		if err := d.publish(ctx, c.Run, "start", lifecycle.EventDecommissionStarted,
			EventData{Stage: c.Run.CurrentStage, Status: lifecycle.JobRunning}, c.Now); err != nil {
			return runner.Outcome{}, err
		}
		return run(ctx, c)
	}
}
