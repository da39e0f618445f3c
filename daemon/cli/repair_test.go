package cli_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// A part replaced on a repair_required node through the command line
// starts its acceptance run and shows in both parts' histories; an
// unknown serial is refused naming the flag's field and changes nothing.
func TestReplacePartAndHistory(t *testing.T) {
	d := startDaemon(t)
	ctx, now := context.Background(), time.Now()
	rec := &lifecycle.BOM{GPUs: []lifecycle.BOMGPU{{Vendor: "nvidia", Model: "H100", UUID: "GPU-a", Serial: "1650000003", Source: "agent"}}}
	d.must(d.store.CreateNode(ctx, lifecycle.Node{ID: "n1", SiteID: d.site, Hostname: "c07u62", Status: lifecycle.NodeEnrolling}))
	_, err := d.store.UpdateNode(ctx, "n1", func(n *lifecycle.Node) error {
		n.Inventory = &lifecycle.NodeInventory{Recorded: rec, RecordedAt: &now}
		return nil
	})
	d.must(err)
	for _, to := range []lifecycle.NodeState{lifecycle.NodeQuarantined, lifecycle.NodeRepairRequired} {
		from := lifecycle.NodeEnrolling
		actor := lifecycle.ActorOnboarding
		if to == lifecycle.NodeRepairRequired {
			from, actor = lifecycle.NodeQuarantined, lifecycle.ActorRepairWorkflow
		}
		_, err := d.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: "n1", From: from, To: to, Context: lifecycle.TransitionContext{Actor: actor}})
		d.must(err)
	}
	args := func(old string) []string {
		return []string{"node", "replace-part", "c07u62", "--old-serial", old, "--new-serial", "1659999999", "--kind", "gpu",
			"--ticket", "RMA-4711", "--reason", "double-bit ECC"}
	}
	if r := d.cli("", args("nope")...); r.code == 0 || !strings.Contains(r.stderr, "old_serial") {
		t.Fatalf("unknown serial: %d %s", r.code, r.stderr)
	}
	if r := d.cli("", "part", "history", "1659999999"); r.code == 0 {
		t.Fatalf("a refused replacement left history: %s", r.stdout)
	}
	if r := d.cli("", args("1650000003")...); r.code != 0 || !strings.Contains(r.stdout, "repair_acceptance") {
		t.Fatalf("replace-part: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r := d.cli("", "part", "history", "1650000003")
	if r.code != 0 || !strings.Contains(r.stdout, "installed") || !strings.Contains(r.stdout, "replaced") || !strings.Contains(r.stdout, "RMA-4711") {
		t.Fatalf("part history: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := d.cli("", "repair", "list", "--node", "n1"); r.code != 0 || !strings.Contains(r.stdout, "c07u62") {
		t.Fatalf("repair list: %d %s %s", r.code, r.stdout, r.stderr)
	}
}
