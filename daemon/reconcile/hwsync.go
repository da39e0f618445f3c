package reconcile

import (
	"context"
	"maps"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// reseed repairs hardware sync on an active node (seed 001 §9.1): with
// enable_hw_sync off in MAAS it turns the flag back on first (MAAS
// ignores the host's sync signals while it is off), then queues one
// node.hw_sync_reseed for an enrolled agent; the queue returns the live
// task instead of a second one. A failed MAAS call queues nothing: the
// next pass, which still sees the flag off, tries both again.
func (r *Reconciler) reseed(ctx context.Context, sc siteCtx, n lifecycle.Node, o Observation) error {
	if n.Status != lifecycle.NodeActive {
		return nil
	}
	if !o.Machine.HWSyncEnabled {
		if err := r.enableHWSync(ctx, sc, n); err != nil {
			return err
		}
	}
	if n.EnrolledAt == nil {
		return nil
	}
	id, err := r.cfg.NewID()
	if err != nil {
		return err
	}
	_, created, err := r.cfg.Tasks.Enqueue(ctx, lifecycle.ReseedTask(id, n.ID, "", n.SiteID, n.MaasSystemID, r.now().Add(time.Hour)))
	if created {
		r.cfg.Metrics.action(ActReseedHWSync)
	}
	return err
}

// enableHWSync turns enable_hw_sync back on in MAAS, once per drift: an
// observation read before the call is stale from then on, and the stored
// one shows the flag on, so only a MAAS that shows it off again (or a
// failed call) leads to another.
func (r *Reconciler) enableHWSync(ctx context.Context, sc siteCtx, n lifecycle.Node) error {
	err := r.cfg.Cleaner.EnableHWSync(ctx, sc.site, n.MaasSystemID)
	r.nodes.actedOn(n.ID) // even a failed call may have reached MAAS
	if err != nil {
		return err
	}
	r.cfg.Metrics.action(ActEnableHWSync)
	r.log.Warn("hardware sync was off in MAAS; turned back on", "site", n.SiteID, "node", n.ID, "system_id", n.MaasSystemID)
	_, err = r.cfg.Store.UpdateNodeMaasState(ctx, n.ID, func(s *lifecycle.NodeMaasState) error {
		s.HWSyncEnabled = true
		if s.DriftDetected && s.DriftRule == lifecycle.DriftHWSyncUnhealthy {
			s.DriftDetails = maps.Clone(s.DriftDetails)
			s.DriftDetails["hw_sync_enabled"] = "false; turned back on"
		}
		return nil
	})
	if err != nil {
		return err
	}
	return r.audit(ctx, n, "reconcile.enable_hw_sync", "enable_hw_sync=false", "enable_hw_sync=true",
		Verdict{Rule: lifecycle.DriftHWSyncUnhealthy})
}
