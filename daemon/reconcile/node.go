package reconcile

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// node reconciles one node against its observed machine: record the
// observation and the drift first, then act (record before acting: a
// crash between the two leaves a drift that the next pass acts on).
func (r *Reconciler) node(ctx context.Context, sc siteCtx, n lifecycle.Node, o Observation, rep *Report) {
	rep.Nodes++
	defer r.nodes.lock(n.ID)()
	if r.nodes.stale(n.ID, o) {
		r.log.Debug("reconcile: observation read before the last action; a newer one follows", "site", n.SiteID, "node", n.ID)
		return
	}
	n, err := r.fresh(ctx, n)
	if err != nil {
		r.log.Warn("reconcile: read node", "site", n.SiteID, "node", n.ID, "err", err)
		return
	}
	now := r.now()
	if run := sc.ownedBy(n); run != "" {
		rep.Owned++
		r.record(ctx, n, o, Verdict{}, now, false)
		return
	}
	v := Evaluate(n, o, sc.site, sc.policy, now)
	if v.Rule != "" {
		rep.Drifted++
	}
	if !r.record(ctx, n, o, v, now, true) {
		return
	}
	r.take(ctx, sc, n, o, v)
}

// take carries out v's action on node n, once its record is written.
func (r *Reconciler) take(ctx context.Context, sc siteCtx, n lifecycle.Node, o Observation, v Verdict) {
	err := r.act(ctx, sc, n, o, v)
	if v.Action.changesMAAS() {
		r.nodes.actedOn(n.ID) // even a failed call may have reached MAAS
	}
	if err != nil {
		r.log.Warn("reconcile action failed", "site", n.SiteID, "node", n.ID, "action", string(v.Action), "err", err)
	}
}

// record writes the observation and the drift record; it reports whether
// the write succeeded (no action is taken without it).
func (r *Reconciler) record(ctx context.Context, n lifecycle.Node, o Observation, v Verdict, now time.Time, judged bool) bool {
	var opened bool
	_, err := r.cfg.Store.UpdateNodeMaasState(ctx, n.ID, func(s *lifecycle.NodeMaasState) error {
		observe(s, n, o, now)
		if judged {
			opened = applyVerdict(s, v, now)
			s.LastReconciledAt = &now
		}
		return nil
	})
	if err != nil {
		r.log.Warn("record node MAAS state", "site", n.SiteID, "node", n.ID, "err", err)
		return false
	}
	if opened {
		r.driftOpened(n, v)
	}
	return true
}

// driftOpened counts and logs a drift newly recorded on node n.
func (r *Reconciler) driftOpened(n lifecycle.Node, v Verdict) {
	r.cfg.Metrics.detected(v)
	r.log.Warn("drift detected", "site", n.SiteID, "node", n.ID, "rule", string(v.Rule),
		"severity", string(v.Severity), "maas_status", v.Details["maas_status"], "node_status", string(n.Status))
}

func observe(s *lifecycle.NodeMaasState, n lifecycle.Node, o Observation, now time.Time) {
	m := o.Machine
	s.MaasSystemID, s.Present, s.LastObservedAt = n.MaasSystemID, o.Present, &now
	if !o.Present {
		s.LastStatus, s.LastPowerState, s.LastIPs = "", "", nil
		return
	}
	s.LastStatus, s.LastPowerState, s.LastIPs = m.Status.String(), m.PowerState, m.IPs
	s.HWSyncEnabled, s.LastSync, s.NextSync = m.HWSyncEnabled, m.LastSync, m.NextSync
}

// applyVerdict opens, keeps or heals the drift record; it reports whether
// a new drift was opened. A quarantining drift stays open until an admin
// resolves it; the others heal once the rules find nothing.
func applyVerdict(s *lifecycle.NodeMaasState, v Verdict, now time.Time) bool {
	switch {
	case v.Rule == "" && s.DriftDetected && !s.DriftRule.Quarantines():
		s.DriftDetected, s.DriftResolvedAt, s.DriftResolvedBy = false, &now, "reconciler"
	case v.Rule == "":
	case s.DriftDetected && s.DriftRule == v.Rule:
		s.DriftDetails = v.Details
	case s.DriftDetected && s.DriftRule.Quarantines():
		// An open quarantine drift is the admin's; keep its first cause.
	default:
		s.Drift = lifecycle.Drift{DriftDetected: true, DriftRule: v.Rule, DriftSeverity: v.Severity,
			DriftDetails: v.Details, DriftDetectedAt: &now}
		return true
	}
	return false
}

// observation rebuilds what MAAS last showed from the stored record.
func observation(s lifecycle.NodeMaasState) Observation {
	st, _ := lifecycle.ParseMaasStatusName(s.LastStatus)
	o := Observation{Present: s.Present}
	o.Machine.SystemID, o.Machine.Status, o.Machine.PowerState, o.Machine.IPs = s.MaasSystemID, st, s.LastPowerState, s.LastIPs
	o.Machine.HWSyncEnabled, o.Machine.LastSync, o.Machine.NextSync = s.HWSyncEnabled, s.LastSync, s.NextSync
	return o
}
