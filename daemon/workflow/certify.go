package workflow

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Certifier issues a run's clean certificate once per key: a repeated
// call answers the certificate issued first; ByRun reads the one issued
// under key (cert.Issuer).
type Certifier interface {
	IssueRun(ctx context.Context, site, key string, c cert.Certificate) (cert.Record, error)
	ByRun(ctx context.Context, key string) (cert.Record, bool, error)
}

// certified wraps a workflow's last stage: once it is through, the run's
// clean certificate is issued before the run records its completion, so
// a completed turnover or onboarding always has one, and a crash in
// between issues nothing twice (the key is the run). stages are the
// workflow's stages, the checks of a certificate without agent evidence.
func (d Deps) certified(run runner.StageFunc, stages []lifecycle.Stage) runner.StageFunc {
	return d.certifiedWhen(run, stages, runner.Outcome.Moves)
}

// certifiedEarly wraps a stage that may end its run before the last
// stage (runner.Complete): only such an ending is certified there.
func (d Deps) certifiedEarly(run runner.StageFunc, stages []lifecycle.Stage) runner.StageFunc {
	return d.certifiedWhen(run, stages, runner.Outcome.Completes)
}

func (d Deps) certifiedWhen(run runner.StageFunc, stages []lifecycle.Stage, ends func(runner.Outcome) bool) runner.StageFunc {
	return func(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
		out, err := run(ctx, c)
		if err != nil || d.Certs == nil || !ends(out) {
			return out, err
		}
		raw, where, err := d.completionEvidence(ctx, c, stages)
		if err != nil {
			return runner.Outcome{}, err
		}
		if err := d.certify(ctx, c, c.Run.ID, raw, where); err != nil {
			return runner.Outcome{}, err
		}
		return out, nil
	}
}

// certify issues the certificate of c's run under key from the evidence
// raw, every measurement marked where it was taken.
func (d Deps) certify(ctx context.Context, c *runner.Context, key string, raw []byte, where string) error {
	if d.Certs == nil {
		return nil
	}
	p, err := cert.FromEvidence(raw, where)
	if err != nil {
		return lifecycle.Wrap(lifecycle.CodeInternal, "workflow.certify", err)
	}
	run := c.Run
	p.Mode, p.StartedAt, p.FinishedAt, p.RequestedBy = modeOf(run), run.RequestedAt.UTC(), c.Now().UTC(), run.RequestedBy
	node := cert.Node{NodeID: run.NodeID, MAASSystemID: d.systemID(ctx, run), Serials: d.serials(ctx, run.NodeID, raw)}
	rec, err := d.Certs.IssueRun(ctx, run.SiteID, key, cert.Certificate{Node: node, Predicate: p})
	if err != nil {
		return lifecycle.Wrap(lifecycle.CodeUnavailable, "workflow.certify", err)
	}
	c.Detail("certificate", rec.Digest)
	return nil
}

// serials are the node's recorded bill of materials' serials (GPUs,
// then drives), else the GPU serials the evidence names.
func (d Deps) serials(ctx context.Context, nodeID string, raw []byte) []string {
	if n, err := d.Store.GetNode(ctx, nodeID); err == nil {
		if s := n.Serials(); len(s) > 0 {
			return s
		}
	}
	return cert.Serials(raw)
}

// modeOf is the certificate's mode: the decommission's, onboarding, or
// the repair run's check.
func modeOf(r lifecycle.Run) string {
	switch r.Kind {
	case lifecycle.RunOnboarding:
		return "onboarding_acceptance"
	case lifecycle.RunRepair:
		return string(lifecycle.RepairStage(r))
	}
	return string(r.Mode)
}

// completionEvidence is what a completed run's certificate signs: the
// agent's clean validation, measured on the tenant's OS, for a soft reset
// or a storage cleanup; for a reimage or an onboarding, the stages that
// redeployed the host and saw its agent enroll; for a full
// decommission, and a manual onboarding (a host others installed), the
// stages the daemon observed.
func (d Deps) completionEvidence(ctx context.Context, c *runner.Context, stages []lifecycle.Stage) ([]byte, string, error) {
	switch {
	case c.Run.Kind == lifecycle.RunOnboarding && c.Run.OnboardingMode == lifecycle.OnboardManual:
		return stageEvidence(c, stages, cert.DaemonObserved) // a host installed by others: only its enrollment seen
	case c.Run.Kind == lifecycle.RunOnboarding, c.Run.Mode == lifecycle.ModeReimage:
		return stageEvidence(c, stages, cert.AfterRedeploy)
	case c.Run.Mode == lifecycle.ModeFullDecommission:
		return stageEvidence(c, stages, cert.DaemonObserved)
	}
	id := c.Var(taskVar(lifecycle.TaskValidateClean))
	if id == "" {
		return nil, "", lifecycle.Errorf(lifecycle.CodeConflict, "workflow.certify", "run %s has no clean validation to certify", c.Run.ID)
	}
	t, err := d.Store.GetTask(ctx, id)
	if err != nil {
		return nil, "", err
	}
	if t.Result == nil || len(t.Result.Evidence) == 0 {
		return stageEvidence(c, stages, cert.InBandTenantOS)
	}
	return t.Result.Evidence, cert.InBandTenantOS, nil
}

// stageEvidence is evidence the daemon writes itself: one passed check
// per stage of the workflow, all of which the run went through, and, for
// a MAAS onboarding whose policy turned the acceptance check off, a check
// that says it did not run.
func stageEvidence(c *runner.Context, stages []lifecycle.Stage, where string) ([]byte, string, error) {
	ev := wire.Evidence{Task: "daemon.stages", Passed: true, CollectedAt: c.Now().UTC().Truncate(time.Second)}
	for _, s := range stages {
		ev.Checks = append(ev.Checks, wire.Check{Name: "stage:" + string(s), Passed: true, Reason: "completed"})
	}
	if c.Run.Kind == lifecycle.RunOnboarding && c.Run.OnboardingMode != lifecycle.OnboardManual && !c.Policy.AcceptanceOn() {
		ev.Checks = append(ev.Checks, wire.Check{Name: "stage:" + acceptanceDetail, Passed: true, Reason: acceptanceOff})
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		return nil, "", lifecycle.Wrap(lifecycle.CodeInternal, "workflow.certify", err)
	}
	return raw, where, nil
}

// certifyQuarantine issues the certificate of a failed clean check: the
// failing task's evidence, whose verdicts say fail, with outcome
// quarantined. One per run (cert.QuarantineKey).
func (d Deps) certifyQuarantine(ctx context.Context, c *runner.Context, t lifecycle.AgentTask) error {
	if t.Result == nil || len(t.Result.Evidence) == 0 {
		return nil
	}
	return d.certify(ctx, c, cert.QuarantineKey(c.Run.ID), t.Result.Evidence, cert.InBandTenantOS)
}

// systemID is the run's MAAS machine, else its node's; "none" for a
// manual host MAAS never knew.
func (d Deps) systemID(ctx context.Context, run lifecycle.Run) string {
	if run.MaasSystemID != "" {
		return run.MaasSystemID
	}
	if n, err := d.Store.GetNode(ctx, run.NodeID); err == nil && n.MaasSystemID != "" {
		return n.MaasSystemID
	}
	return "none"
}

// runCertificate is the envelope of the run's certificate, its
// completion's else its quarantine's; nil for none, or when it cannot be
// read (the event goes out without it: the API and the export serve it).
func (d Deps) runCertificate(ctx context.Context, runID string) json.RawMessage {
	if d.Certs == nil {
		return nil
	}
	for _, key := range []string{runID, cert.QuarantineKey(runID)} {
		rec, ok, err := d.Certs.ByRun(ctx, key)
		if err != nil {
			d.logger().Warn("certificate not read for the run's event", "run", runID, "err", err)
			return nil
		}
		if ok {
			return rec.Envelope
		}
	}
	return nil
}
