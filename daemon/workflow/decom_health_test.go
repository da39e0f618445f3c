package workflow_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// A node whose health between turnovers was degraded (daemon/health set
// EscalateDiag) gets a deeper diagnostic at its next turnover: the
// validation asks its DCGM level escalated; a node without it does not.
func TestDegradedHealthEscalatesTheTurnoversDiagnostic(t *testing.T) {
	for _, degraded := range []bool{false, true} {
		s := newSite(t)
		n := s.deployedNode("c20u09", "10.0.20.9")
		if degraded {
			_, err := s.store.UpdateNodeHealth(context.Background(), n.ID, func(h *lifecycle.NodeHealth, _ bool) (*lifecycle.HealthEntry, error) {
				h.Verdict, h.Action, h.EscalateDiag = lifecycle.HealthDegraded, lifecycle.HealthActDCGMLevel3, true
				return nil, nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		seen := s.runAgent(n.ID, cleanHost)
		if r := s.wait(s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset}), 30*time.Second); r.Status != lifecycle.JobCompleted {
			t.Fatalf("turnover %s: %s", r.Status, r.ErrorMessage)
		}
		seen.mu.Lock()
		var escalate *bool
		for _, tk := range seen.tasks {
			if tk.Type == lifecycle.TaskValidateClean {
				var p wire.ValidateCleanPayload
				_ = json.Unmarshal(tk.Payload, &p)
				if p.DCGM != nil {
					escalate = &p.DCGM.Escalate
				}
			}
		}
		seen.mu.Unlock()
		if escalate == nil || *escalate != degraded {
			t.Fatalf("degraded %v: validation escalate = %v", degraded, escalate)
		}
	}
}
