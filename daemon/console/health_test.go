package console_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The node page shows the node's health verdict, each check with its
// reason and action, and the history with what was decided.
func TestNodePageShowsTheHealth(t *testing.T) {
	e := newEnv(t, false)
	e.onboard("gpu-08", "batch-1", lifecycle.JobCompleted)
	_, err := e.store.UpdateNodeHealth(context.Background(), "node-gpu-08", func(h *lifecycle.NodeHealth, _ bool) (*lifecycle.HealthEntry, error) {
		h.Verdict, h.Action, h.Reason = lifecycle.HealthCritical, lifecycle.HealthActReboot, "xid: Xid 79 on 0000:17:00.0 (reboot)"
		h.Checks = []lifecycle.HealthCheck{{Name: "xid", Verdict: lifecycle.HealthCritical, Action: lifecycle.HealthActReboot, Reason: "Xid 79 on 0000:17:00.0 (reboot)"},
			{Name: "ecc", Verdict: lifecycle.HealthHealthy, Action: lifecycle.HealthActNone}}
		return &lifecycle.HealthEntry{Kind: lifecycle.HealthEntryVerdict, Verdict: lifecycle.HealthCritical, Reason: "xid", Decision: "quarantined; repair not available"}, nil
	})
	must(t, err)
	b := e.signIn(lifecycle.RoleViewer)
	_, page := b.get("/console/nodes/node-gpu-08")
	for _, w := range []string{`id="health"`, "h-critical", "recommended: reboot", "Xid 79 on 0000:17:00.0", "ecc", "quarantined; repair not available"} {
		if !strings.Contains(page, w) {
			t.Errorf("node page lacks %q", w)
		}
	}
}
