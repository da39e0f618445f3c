package cli_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// nodeOn stores a node of site in state enrolling, active or deleted.
func (d *daemon) nodeOn(site, id, host string, st lifecycle.NodeState) {
	d.t.Helper()
	ctx := context.Background()
	d.must(d.store.CreateNode(ctx, lifecycle.Node{ID: id, SiteID: site, Hostname: host, Status: lifecycle.NodeEnrolling}))
	steps := map[lifecycle.NodeState][][2]lifecycle.NodeState{
		lifecycle.NodeActive: {{lifecycle.NodeEnrolling, lifecycle.NodeActive}},
		lifecycle.NodeDeleted: {{lifecycle.NodeEnrolling, lifecycle.NodeActive}, {lifecycle.NodeActive, lifecycle.NodeDraining},
			{lifecycle.NodeDraining, lifecycle.NodeRetired}, {lifecycle.NodeRetired, lifecycle.NodeRemoving},
			{lifecycle.NodeRemoving, lifecycle.NodeDeleted}},
	}[st]
	actors := map[lifecycle.NodeState]lifecycle.Actor{lifecycle.NodeActive: lifecycle.ActorOnboarding,
		lifecycle.NodeDraining: lifecycle.ActorDrainLifecycle, lifecycle.NodeRetired: lifecycle.ActorDrainLifecycle,
		lifecycle.NodeRemoving: lifecycle.ActorRemoveWorkflow, lifecycle.NodeDeleted: lifecycle.ActorRemoveWorkflow}
	for _, s := range steps {
		_, err := d.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: id, From: s[0], To: s[1],
			Context: lifecycle.TransitionContext{Actor: actors[s[1]], TaskID: "t"}})
		d.must(err)
	}
}

// Node verbs take a hostname as well as an id: a hostname on one site
// is that node, a deleted node counts only when nothing else has the
// hostname, and a hostname on several sites needs --site.
func TestNodeVerbsTakeHostnames(t *testing.T) {
	d := startDaemon(t)
	other := d.mustJSON("site", "create", "--name", "dc9", "--region", "dc9", "--url", "http://10.0.0.9:5240/MAAS",
		"--pxe-iface", "ens19", "--vlan", "46", "--node-pxe-iface", "eno8303")["id"].(string)
	d.nodeOn(d.site, "n-03", "gpu03", lifecycle.NodeActive)
	d.nodeOn(d.site, "n-04a", "gpu04", lifecycle.NodeActive)
	d.nodeOn(other, "n-04b", "gpu04", lifecycle.NodeEnrolling)
	d.nodeOn(d.site, "n-05old", "gpu05", lifecycle.NodeDeleted)
	d.nodeOn(other, "n-05", "gpu05", lifecycle.NodeEnrolling)
	d.nodeOn(d.site, "n-06", "gpu06", lifecycle.NodeDeleted)
	for _, tc := range []struct {
		args []string
		id   string
	}{
		{[]string{"gpu03"}, "n-03"},
		{[]string{"GPU03"}, "n-03"},
		{[]string{"n-04a"}, "n-04a"},
		{[]string{"gpu04", "--site", other}, "n-04b"},
		{[]string{"gpu05"}, "n-05"},
		{[]string{"gpu06"}, "n-06"},
	} {
		if got := d.mustJSON(append([]string{"node", "get"}, tc.args...)...)["node"].(map[string]any)["id"]; got != tc.id {
			t.Errorf("node get %v: node %v, want %s", tc.args, got, tc.id)
		}
	}
	r := d.cli("", "node", "get", "gpu04")
	if r.code != cli.ExitUsage || !strings.Contains(r.stderr, `hostname "gpu04" is on sites`) ||
		!strings.Contains(r.stderr, d.site) || !strings.Contains(r.stderr, other) || !strings.Contains(r.stderr, "--site") {
		t.Errorf("node get of a hostname on two sites: exit %d, stderr %q; want usage naming both sites and --site", r.code, r.stderr)
	}
	if r := d.cli("", "node", "get", "gpu99"); r.code != cli.ExitNotFound {
		t.Errorf("node get of an unknown name: exit %d, want not found: %s", r.code, r.stderr)
	}
	// an action verb resolves the hostname too: the conflict names the node's id
	r = d.cli("", "node", "activate", "gpu03", "--reason", "checked")
	if r.code != cli.ExitConflict || !strings.Contains(r.stderr, "n-03") {
		t.Errorf("node activate gpu03 (active, not quarantined): exit %d, stderr %q; want a conflict about n-03", r.code, r.stderr)
	}
}
