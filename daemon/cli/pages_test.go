package cli_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// node list follows next_cursor: with pages of 2, -o json and the table
// both hold all five nodes, each once, the table by hostname (pages come
// in id order); a --limit out of range is refused.
func TestNodeListFollowsPages(t *testing.T) {
	d := startDaemon(t)
	for i := range 5 {
		id := fmt.Sprintf("node-%d", i)
		host := fmt.Sprintf("gpu-%d", 4-i) // hostnames in the reverse of id order
		d.must(d.store.CreateNode(t.Context(), lifecycle.Node{ID: id, SiteID: d.site, Hostname: host, Status: lifecycle.NodeEnrolling}))
	}
	r := d.cli("", "node", "list", "--limit", "2", "-o", "json")
	var out struct{ Nodes []struct{ ID string } }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != 0 {
		t.Fatalf("node list -o json: %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if len(out.Nodes) != 5 || out.Nodes[0].ID != "node-0" || out.Nodes[4].ID != "node-4" {
		t.Fatalf("json holds %+v, want node-0 to node-4", out.Nodes)
	}
	table := d.cli("", "node", "list", "--limit", "2")
	if n := strings.Count(table.stdout, "\nnode-"); n != 5 {
		t.Fatalf("table holds %d nodes, want 5:\n%s", n, table.stdout)
	}
	if i0, i4 := strings.Index(table.stdout, "gpu-0"), strings.Index(table.stdout, "gpu-4"); i0 < 0 || i4 < i0 {
		t.Fatalf("table not by hostname:\n%s", table.stdout)
	}
	if r := d.cli("", "node", "list", "--limit", "1001"); r.code != cli.ExitUsage || !strings.Contains(r.stderr, "1001") {
		t.Fatalf("--limit 1001: %d %s", r.code, r.stderr)
	}
}

// Every other list command follows next_cursor too: with pages of 1 its
// -o json and its table hold every item once; --limit out of range is
// refused naming the value.
func TestListCommandsFollowPages(t *testing.T) {
	d := startDaemon(t)
	ctx := t.Context()
	for _, name := range []string{"dc2", "dc3"} {
		d.mustJSON("site", "create", "--name", name, "--region", name, "--url", "http://10.0.0.2:5240/MAAS",
			"--pxe-iface", "ens19", "--vlan", "46", "--node-pxe-iface", "eno8303")
	}
	var roce []lifecycle.RoCEAssignment
	for i := range 3 {
		host := fmt.Sprintf("gpu-%d", i)
		_, err := d.store.CreatePowerOverride(ctx, lifecycle.PowerOverride{ID: fmt.Sprintf("ovr-%d", i), SiteID: d.site,
			SelectorType: lifecycle.SelectHostname, SelectorValue: host, VaultPath: "kv/o/" + host, Status: "active"})
		d.must(err)
		roce = append(roce, lifecycle.RoCEAssignment{ID: fmt.Sprintf("roce-%d", i), Hostname: host, Interface: "eth0", IPv4CIDR: fmt.Sprintf("10.0.0.%d/31", 2*i)})
		n := lifecycle.Node{ID: fmt.Sprintf("node-%d", i), SiteID: d.site, Hostname: host, Status: lifecycle.NodeEnrolling}
		d.must(d.store.CreateNode(ctx, n))
		d.must(d.store.CreateRun(ctx, lifecycle.Run{ID: fmt.Sprintf("decom-%d", i), Kind: lifecycle.RunDecommission,
			Mode: lifecycle.ModeSoftReset, SiteID: d.site, NodeID: n.ID, Status: lifecycle.JobPending}))
		_, err = d.store.UpdateNodeMaasState(ctx, n.ID, func(s *lifecycle.NodeMaasState) error {
			s.DriftDetected, s.DriftRule = true, lifecycle.DriftReleased
			return nil
		})
		d.must(err)
		d.must(d.store.CreateAdminToken(ctx, lifecycle.AdminToken{ID: fmt.Sprintf("tok-%d", i), Name: "t", Role: lifecycle.RoleViewer, Hash: fmt.Sprint("h", i)}))
		_, err = d.store.Submit(ctx, lifecycle.Submission{Batch: &lifecycle.Batch{ID: fmt.Sprintf("batch-%d", i), SiteID: d.site, Kind: lifecycle.RunOnboarding},
			Runs: []lifecycle.Run{{ID: fmt.Sprintf("onb-%d", i), Kind: lifecycle.RunOnboarding, SiteID: d.site, Hostname: "b" + host, Status: lifecycle.JobPending}}})
		d.must(err)
	}
	_, err := d.store.UpsertRoCEAssignments(ctx, d.site, roce)
	d.must(err)
	for _, c := range []struct {
		args []string
		key  string
		want int
	}{
		{[]string{"site", "list"}, "sites", 3},
		{[]string{"override", "list", d.site}, "overrides", 3},
		{[]string{"roce", "list", d.site}, "items", 3},
		{[]string{"decommission", "list"}, "decommissions", 3},
		{[]string{"onboarding", "batches"}, "batches", 3},
		{[]string{"reconcile", "drift"}, "drift", 3},
		{[]string{"token", "list"}, "tokens", 4}, // and the bootstrap token
	} {
		r := d.cli("", append(c.args, "--limit", "1", "-o", "json")...)
		var out map[string][]struct {
			ID     string
			NodeID string `json:"node_id"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != 0 {
			t.Fatalf("%v -o json: %d %v\n%s%s", c.args, r.code, err, r.stdout, r.stderr)
		}
		seen := map[string]bool{}
		for _, it := range out[c.key] {
			seen[it.ID+it.NodeID] = true
		}
		if len(out[c.key]) != c.want || len(seen) != c.want {
			t.Errorf("%v --limit 1 -o json: %d items (%d distinct), want %d", c.args, len(out[c.key]), len(seen), c.want)
		}
		table := d.cli("", append(c.args, "--limit", "1")...)
		if rows := strings.Count(strings.TrimSpace(table.stdout), "\n"); table.code != 0 || rows != c.want {
			t.Errorf("%v --limit 1: %d rows, want %d:\n%s%s", c.args, rows, c.want, table.stdout, table.stderr)
		}
		if r := d.cli("", append(c.args, "--limit", "1001")...); r.code != cli.ExitUsage || !strings.Contains(r.stderr, "1001") {
			t.Errorf("%v --limit 1001: %d %s", c.args, r.code, r.stderr)
		}
	}
}
