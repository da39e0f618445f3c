package health

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Fault records a fault the GPU cloud reported on a node and acts on it
// once: a kind the policy quarantines moves an active node to quarantined
// and asks for a repair run; any other kind marks the node so its next
// turnover's DCGM diagnostic runs a level deeper. A retry with the same
// idempotency key returns the first answer (created false) and does
// nothing again; the same key with another fault is a conflict. A bad
// fault is invalid naming the field and stores nothing.
func (s *Service) Fault(ctx context.Context, nodeID string, f lifecycle.Fault) (lifecycle.HealthEntry, bool, error) {
	if err := f.Validate(); err != nil {
		return lifecycle.HealthEntry{}, false, err
	}
	n, err := s.cfg.Store.GetNode(ctx, nodeID)
	if err != nil {
		return lifecycle.HealthEntry{}, false, err
	}
	p, err := s.policy(ctx, n.SiteID)
	if err != nil {
		return lifecycle.HealthEntry{}, false, err
	}
	id, err := s.faultID(f.IdempotencyKey)
	if err != nil {
		return lifecycle.HealthEntry{}, false, err
	}
	e, created, err := s.cfg.Store.RecordFault(ctx, lifecycle.HealthEntry{ID: id, NodeID: n.ID, Fault: &f})
	if err != nil || (!created && e.Decision != "") {
		return e, created, err
	}
	s.cfg.Metrics.fault(f.Kind)
	reason := fmt.Sprintf("fault reported by %s: %s", f.Reporter, f.Kind)
	if slices.Contains(p.QuarantineFaults, f.Kind) {
		e.Decision, _, err = s.quarantine(ctx, n, reason, "fault-"+n.ID+"-"+e.ID)
	} else {
		e.Decision, err = s.escalate(ctx, n)
	}
	if err != nil {
		return e, created, err
	}
	if err := s.cfg.Store.UpdateHealthEntry(ctx, n.ID, e.ID, e.Decision); err != nil {
		return e, created, err
	}
	return e, created, s.publish(ctx, lifecycle.EventFaultReported, "fault-"+n.ID+"-"+e.ID+"-reported", n, map[string]any{
		"kind": f.Kind, "reporter": f.Reporter, "decision": e.Decision})
}

// escalate marks the node so its next turnover's diagnostic runs deeper.
func (s *Service) escalate(ctx context.Context, n lifecycle.Node) (string, error) {
	_, err := s.cfg.Store.UpdateNodeHealth(ctx, n.ID, func(h *lifecycle.NodeHealth, found bool) (*lifecycle.HealthEntry, error) {
		if !found {
			h.Verdict, h.Action, h.Checks = lifecycle.HealthUnknown, lifecycle.HealthActNone, []lifecycle.HealthCheck{}
		}
		h.EscalateDiag = true
		return nil, nil
	})
	return "recorded; next turnover's DCGM diagnostic one level deeper", err
}

// faultID derives the entry's id from the idempotency key, so a retry
// finds the first one; without a key every fault is new.
func (s *Service) faultID(key string) (string, error) {
	if key == "" {
		id, err := lifecycle.NewID(s.cfg.Rand)
		return "fault-" + id, err
	}
	sum := sha256.Sum256([]byte(key))
	return "fault-" + hex.EncodeToString(sum[:12]), nil
}
