package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Onboarding is the MAAS onboarding workflow (seed 001 §4.3) for the runner.
func (d Deps) Onboarding() *runner.Def {
	policyTimeout := func(key string) func(lifecycle.SitePolicy) time.Duration {
		return func(p lifecycle.SitePolicy) time.Duration { return p.TimeoutFor(key) }
	}
	st := func(s lifecycle.Stage, run runner.StageFunc, class lifecycle.FailureClass) runner.StageDef {
		sd := runner.StageDef{Stage: s, Run: run, Class: class}
		if spec := lifecycle.SpecOf(s); spec.Waits {
			sd.Timeout, sd.TimeoutClass = policyTimeout(spec.Timeout), spec.TimeoutClass
		}
		return sd
	}
	stages := []runner.StageDef{
		st(lifecycle.StageLoadSiteConfig, d.loadSiteConfig, lifecycle.FailSiteCapabilityMissing),
		st(lifecycle.StageResolvePowerCredentials, d.resolvePowerCredentials, lifecycle.FailSiteCapabilityMissing),
		st(lifecycle.StageCreateOrFindInMaas, d.createOrFind, lifecycle.FailPXEDiscovery),
		st(lifecycle.StageCommissionNode, d.commission, lifecycle.FailStateAmbiguity),
		st(lifecycle.StageWaitForReady, d.waitForReady, lifecycle.FailStateAmbiguity),
		st(lifecycle.StageConfigureStorage, d.configureStorage, lifecycle.FailHardwareMismatch),
		st(lifecycle.StageApplyRoCEPhase2, d.applyRoCE, lifecycle.FailHardwareMismatch),
		st(lifecycle.StageEnsurePXEInterfaceAuto, d.ensurePXEAuto, lifecycle.FailHardwareMismatch),
		st(lifecycle.StageRenderCloudInit, d.renderCloudInit, lifecycle.FailInputConfig),
		st(lifecycle.StageDeployViaMaas, d.deploy, lifecycle.FailDeployCloudInit),
		st(lifecycle.StageWaitForDeployed, d.waitForDeployed, lifecycle.FailDeployCloudInit),
		st(lifecycle.StageClassifyDeployFailure, d.classifyDeployFailure, lifecycle.FailDeployCloudInit),
		st(lifecycle.StageRecoverForDatasourceRetry, d.recoverForDatasourceRetry, lifecycle.FailDeployCloudInit),
		st(lifecycle.StageEnsureHardwareSync, d.ensureHardwareSync, lifecycle.FailHardwareSync),
		st(lifecycle.StageWaitForHardwareSync, d.waitForHardwareSync, lifecycle.FailHardwareSync),
		st(lifecycle.StageWaitForAgentEnrollment, d.waitForAgentEnrollment, lifecycle.FailAgentEnrollment),
		st(lifecycle.StageOnboardingAcceptance, d.acceptNode, lifecycle.FailOnboardingAcceptance),
	}
	for i := range stages {
		switch stages[i].Stage {
		case lifecycle.StageClassifyDeployFailure:
			stages[i].Conditional = true
			stages[i].MaxAttempts = 2 // seed 001 §4.6: retry 1x
		case lifecycle.StageRecoverForDatasourceRetry:
			stages[i].Conditional = true
			stages[i].MaxAttempts = 2
			// It waits for Ready after a release: bounded like a deploy.
			stages[i].Timeout, stages[i].TimeoutClass = policyTimeout("deploy_timeout"), lifecycle.FailDeployCloudInit
		case lifecycle.StageDeployViaMaas:
			stages[i].MaxAttempts = 3 // seed 001 §4.6: retry 2x
			stages[i].Compensate = d.releaseToReady
		case lifecycle.StageWaitForDeployed:
			stages[i].Compensate = d.releaseToReady
		case lifecycle.StageRenderCloudInit:
			stages[i].Compensate = d.retireEnrollment
		case lifecycle.StageWaitForAgentEnrollment:
			// Seed 001 §4.6: wait again (max 2 attempts); the other waits
			// stop at their policy timeout for an operator.
			stages[i].RetryOnTimeout = true
		}
	}
	var names []lifecycle.Stage
	for _, sd := range stages {
		if !sd.Conditional {
			names = append(names, sd.Stage)
		}
	}
	last := &stages[len(stages)-1]
	last.Run = d.certified(last.Run, names)
	// Without the acceptance check (site policy), the run ends at the
	// enrollment: its certificate names the stages up to there.
	enroll := &stages[len(stages)-2]
	enroll.Run = d.certifiedEarly(enroll.Run, names[:len(names)-1])
	return &runner.Def{Name: "onboarding", Stages: stages, Adopt: d.adoptOnboarding, OnEnd: d.onboardingEnded}
}

// adoptOnboarding accepts a run whose goal was met out of band: the node
// is active (a late enrollment) and MAAS shows it Deployed.
func (d Deps) adoptOnboarding(ctx context.Context, c *runner.Context) error {
	if c.Run.NodeID == "" || c.Run.MaasSystemID == "" {
		return lifecycle.Errorf(lifecycle.CodeConflict, "workflow", "the run has no node or machine to adopt yet")
	}
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound { // reserved, not created yet
		return lifecycle.Errorf(lifecycle.CodeConflict, "workflow", "the run has no node or machine to adopt yet")
	}
	if err != nil {
		return err
	}
	if n.Status != lifecycle.NodeActive {
		return lifecycle.Errorf(lifecycle.CodeConflict, "workflow", "node %s is %s, not active", n.ID, n.Status)
	}
	s, err := d.open(ctx, c)
	if err != nil {
		return err
	}
	m, err := s.finder.Machine(ctx, c.Run.MaasSystemID)
	if err != nil {
		return err
	}
	if m.Status != lifecycle.MaasDeployed {
		return lifecycle.Errorf(lifecycle.CodeConflict, "workflow", "machine %s is %s, not Deployed", m.SystemID, m.Status)
	}
	return nil
}
