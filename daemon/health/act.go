package health

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Actor is the audit actor of the health service's decisions.
const Actor = "health"

// act carries out a new verdict: a critical one quarantines an active
// or offline node (when the policy says so) and asks for a repair run;
// any change of verdict is told to the GPU cloud. A node already
// quarantined is left as it is; a tenant's allocation is never released
// here (an operator decides, as for drift).
func (s *Service) act(ctx context.Context, n lifecycle.Node, prev, h lifecycle.NodeHealth, p lifecycle.HealthPolicy) error {
	decision, acted := "recorded", false
	if h.Verdict == lifecycle.HealthCritical && *p.QuarantineOnCritical {
		d, now, err := s.quarantine(ctx, n, "health: "+h.Reason, fmt.Sprintf("health-%s-%s-%d", n.ID, h.BootID, h.Seq))
		if err != nil {
			return err
		}
		decision, acted = d, now
	}
	if h.Verdict == lifecycle.HealthDegraded && h.EscalateDiag {
		decision = "next turnover's DCGM diagnostic one level deeper"
	}
	if prev.Verdict == h.Verdict && !acted {
		return nil
	}
	s.log.Info("node health changed", "site", n.SiteID, "node", n.ID, "verdict", string(h.Verdict), "decision", decision)
	return s.publish(ctx, lifecycle.EventHealthChanged, fmt.Sprintf("health-%s-%s-%d", n.ID, h.BootID, h.Seq), n, map[string]any{
		"verdict": h.Verdict, "action": h.Action, "reason": h.Reason, "decision": decision})
}

// quarantine moves an active or offline node to quarantined, tells the
// GPU cloud (node.quarantined under eventID), audits it and asks for a
// repair run; it returns what was decided and whether it moved the
// node. A node in any other state is left alone and no repair is asked
// for.
func (s *Service) quarantine(ctx context.Context, n lifecycle.Node, reason, eventID string) (string, bool, error) {
	cur, err := s.cfg.Store.GetNode(ctx, n.ID)
	if err != nil {
		return "", false, err
	}
	if cur.Status != lifecycle.NodeActive && cur.Status != lifecycle.NodeOffline {
		return "node is " + string(cur.Status) + ": left as it is", false, nil
	}
	_, err = s.cfg.Store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: n.ID, From: cur.Status,
		To: lifecycle.NodeQuarantined, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorReconciler}})
	if err != nil {
		return "", false, err
	}
	s.cfg.Metrics.quarantined()
	s.log.Error("node quarantined for its health", "site", n.SiteID, "node", n.ID, "reason", reason)
	if _, err := s.cfg.Store.AppendAudit(ctx, lifecycle.AuditEntry{Actor: Actor, Role: "system", Action: "health.quarantine",
		Reason: reason, TargetKind: "node", TargetID: n.ID, PriorState: string(cur.Status),
		ExpectedTarget: string(lifecycle.NodeQuarantined), CorrelationIDs: map[string]string{"site_id": n.SiteID}}); err != nil {
		return "", false, err
	}
	decision := "quarantined; " + s.repair(ctx, n, reason)
	err = s.publish(ctx, lifecycle.EventNodeQuarantined, eventID+"-quarantined", n, map[string]any{
		"reason": reason, "decision": decision, "allocations": "kept: an operator decides"})
	return decision, true, err
}

// repair asks the Repairer for a repair run and says what came of it.
func (s *Service) repair(ctx context.Context, n lifecycle.Node, reason string) string {
	if err := s.cfg.Repair.StartRepair(ctx, n.ID, reason); err != nil {
		s.log.Warn("repair run not started", "site", n.SiteID, "node", n.ID, "err", err)
		if lifecycle.ErrorCode(err) == lifecycle.CodeUnavailable {
			return "repair not available"
		}
		return "repair not started: " + err.Error()
	}
	return "repair run started"
}

// publish appends one lifecycle event for the GPU cloud (idempotent by id).
func (s *Service) publish(ctx context.Context, t lifecycle.EventType, id string, n lifecycle.Node, data map[string]any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("health: encode event: %w", err)
	}
	_, err = s.cfg.Store.AppendEvent(ctx, lifecycle.OutboxEvent{ID: id, Type: t, NodeID: n.ID, SiteID: n.SiteID,
		Data: raw, OccurredAt: s.cfg.Clock.Now().UTC()})
	return err
}
