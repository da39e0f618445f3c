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
