package reconcile

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// act carries out a verdict's action. Every action is idempotent and
// gated on observed state, so repeating a pass repeats nothing.
func (r *Reconciler) act(ctx context.Context, sc siteCtx, n lifecycle.Node, o Observation, v Verdict) error {
	switch v.Action {
	case ActQuarantine:
		return r.quarantine(ctx, n, v)
	case ActUpdateHost:
		return r.updateHost(ctx, n, v)
	case ActReseedHWSync:
		return r.reseed(ctx, sc, n, o)
	case ActReleasePowerOff:
		return r.cleanRetired(ctx, sc, n, o)
	}
	return nil
}

// updateHost follows the machine's new address; the drift heals with it.
func (r *Reconciler) updateHost(ctx context.Context, n lifecycle.Node, v Verdict) error {
	_, err := r.cfg.Store.UpdateNode(ctx, n.ID, func(x *lifecycle.Node) error { x.Host = v.Details["new_host"]; return nil })
	if err != nil {
		return err
	}
	r.cfg.Metrics.action(ActUpdateHost)
	now := r.now()
	_, err = r.cfg.Store.UpdateNodeMaasState(ctx, n.ID, func(s *lifecycle.NodeMaasState) error {
		applyVerdict(s, Verdict{}, now)
		return nil
	})
	return err
}

// quarantine moves an active or offline node to quarantined through the
// lifecycle rules. Allocations are left alone: the admin decides.
func (r *Reconciler) quarantine(ctx context.Context, n lifecycle.Node, v Verdict) error {
	_, err := r.cfg.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: n.Status,
		To: lifecycle.NodeQuarantined, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorReconciler}})
	if err != nil {
		return err
	}
	r.cfg.Metrics.action(ActQuarantine)
	r.log.Error("node auto-quarantined", "site", n.SiteID, "node", n.ID, "rule", string(v.Rule), "severity", string(v.Severity))
	return r.audit(ctx, n, "reconcile.quarantine", string(n.Status), string(lifecycle.NodeQuarantined), v)
}

// cleanRetired releases a retired node's deployed machine, or powers off
// its released machine, one MAAS call per observation, audited.
func (r *Reconciler) cleanRetired(ctx context.Context, sc siteCtx, n lifecycle.Node, o Observation) error {
	m := o.Machine
	action := "reconcile.power_off"
	var err error
	if m.Status == lifecycle.MaasDeployed {
		action = "reconcile.release"
		err = r.cfg.Cleaner.Release(ctx, sc.site, n.MaasSystemID)
	} else {
		err = r.cfg.Cleaner.PowerOff(ctx, sc.site, n.MaasSystemID)
	}
	if err != nil {
		return err
	}
	r.cfg.Metrics.action(ActReleasePowerOff)
	return r.audit(ctx, n, action, m.Status.String(), "Ready, powered off", Verdict{Rule: lifecycle.DriftRetiredDeployed})
}

func (r *Reconciler) audit(ctx context.Context, n lifecycle.Node, action, prior, expected string, v Verdict) error {
	_, err := r.cfg.Store.AppendAudit(ctx, lifecycle.AuditEntry{Actor: string(lifecycle.ActorReconciler), Role: "system",
		Action: action, Reason: "drift: " + string(v.Rule), TargetKind: "node", TargetID: n.ID,
		PriorState: prior, ExpectedTarget: expected,
		CorrelationIDs: map[string]string{"site_id": n.SiteID, "maas_system_id": n.MaasSystemID}})
	return err
}
