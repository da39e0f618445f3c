package cli_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestNodeActivate(t *testing.T) {
	d := startDaemon(t)
	ctx := context.Background()
	d.must(d.store.CreateNode(ctx, lifecycle.Node{ID: "n1", SiteID: d.site, Hostname: "c07u61", Status: lifecycle.NodeEnrolling}))
	for _, mv := range [][3]string{{"enrolling", "active", "onboarding_workflow"}, {"active", "quarantined", "reconciler"}} {
		_, err := d.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: "n1", From: lifecycle.NodeState(mv[0]),
			To: lifecycle.NodeState(mv[1]), Context: lifecycle.TransitionContext{Actor: lifecycle.Actor(mv[2])}})
		d.must(err)
	}
	if r := d.cli("", "node", "activate", "n1"); r.code != 2 || !strings.Contains(r.stderr, "--reason") {
		t.Fatalf("without --reason: %d %s", r.code, r.stderr)
	}
	if r := d.cli("", "node", "activate", "n1", "--reason", "checked"); r.code != 5 || !strings.Contains(r.stderr, "Deployed") {
		t.Fatalf("MAAS never observed: want exit 5 (conflict) naming Deployed, got %d %s", r.code, r.stderr)
	}
	_, err := d.store.UpdateNodeMaasState(ctx, "n1", func(s *lifecycle.NodeMaasState) error {
		s.SiteID, s.Present, s.LastStatus = d.site, true, "Deployed"
		return nil
	})
	d.must(err)
	if r := d.cli("", "node", "activate", "n1", "--reason", "checked"); r.code != 0 || !strings.Contains(r.stdout, "active") {
		t.Fatalf("activate: %d %s %s", r.code, r.stdout, r.stderr)
	}
}
