package reconcile

import (
	"context"
	"errors"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/clocks"
)

// Run checks agent contact every HeartbeatInterval until ctx ends.
func (r *Reconciler) Run(ctx context.Context) error {
	for {
		if err := r.Heartbeat(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("heartbeat check failed", "err", err)
		}
		if !clocks.Sleep(ctx, r.cfg.Clock, r.cfg.HeartbeatInterval) {
			return nil
		}
	}
}

// Heartbeat applies the agent rule of seed 001 §6.3 to every site: an
// active node whose agent has not polled for the site's
// heartbeat_offline_seconds goes offline, and an offline node whose agent
// is heard from again comes back. The node is then reconciled against the
// MAAS state last observed (Deployed but offline is a warning drift).
// Sites Config.Follows leaves out are another daemon's to judge.
func (r *Reconciler) Heartbeat(ctx context.Context) error {
	sites, err := r.cfg.Store.ListSites(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, s := range sites {
		if s.Status == lifecycle.SiteDeleted || (r.cfg.Follows != nil && !r.cfg.Follows(s.ID)) {
			continue
		}
		errs = append(errs, r.heartbeatSite(ctx, s.ID))
	}
	return errors.Join(errs...)
}

func (r *Reconciler) heartbeatSite(ctx context.Context, siteID string) error {
	sc, err := r.loadSite(ctx, siteID)
	if err != nil {
		return err
	}
	limit := time.Duration(sc.policy.HeartbeatOfflineSeconds) * time.Second
	now := r.now()
	for _, n := range sc.all {
		if (n.Status != lifecycle.NodeActive && n.Status != lifecycle.NodeOffline) || sc.ownedBy(n) != "" {
			continue
		}
		silent := now.Sub(lastContact(n)) > limit
		to := n.Status
		switch {
		case n.Status == lifecycle.NodeActive && silent:
			to = lifecycle.NodeOffline
		case n.Status == lifecycle.NodeOffline && !silent:
			to = lifecycle.NodeActive
		}
		if to != n.Status {
			r.agentMove(ctx, sc, n, to)
		}
	}
	return nil
}

// lastContact is the agent's last poll, else its enrollment, else the
// node's last change.
func lastContact(n lifecycle.Node) time.Time {
	switch {
	case n.LastContactAt != nil:
		return *n.LastContactAt
	case n.EnrolledAt != nil:
		return *n.EnrolledAt
	}
	return n.UpdatedAt
}

func (r *Reconciler) agentMove(ctx context.Context, sc siteCtx, n lifecycle.Node, to lifecycle.NodeState) {
	moved, err := r.cfg.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: n.Status, To: to,
		Context: lifecycle.TransitionContext{Actor: lifecycle.ActorReconciler}})
	if err != nil {
		r.log.Warn("heartbeat transition", "site", n.SiteID, "node", n.ID, "to", string(to), "err", err)
		return
	}
	r.cfg.Metrics.heartbeat(to)
	r.log.Info("agent contact changed node state", "site", n.SiteID, "node", n.ID, "from", string(n.Status), "to", string(to))
	st, err := r.cfg.Store.GetNodeMaasState(ctx, n.ID)
	if err != nil || n.MaasSystemID == "" {
		return // never observed yet: the feed's next look judges it
	}
	var rep Report
	r.node(ctx, sc, moved, observation(st), &rep)
}
