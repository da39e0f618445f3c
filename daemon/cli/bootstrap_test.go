package cli_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// tickets issues the ticket "ticket-<node>" expiring ttl after
// 2026-05-01 (nothing fetches it here).
type tickets struct{}

func (tickets) IssueBootstrapTicket(_ context.Context, _ lifecycle.EnrollmentStore, node string, ttl time.Duration) (string, time.Time, error) {
	exp := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC).Add(ttl)
	return "ticket-" + node, exp, nil
}

func (tickets) CABundlePEM() []byte {
	return []byte("-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n")
}

// TestNodeCreateAndBootstrap: node create prints the node, its
// onboarding, the expiry and the command once; --ttl sets the ticket's
// life; node bootstrap issues another (the node named by id or hostname);
// bad command lines change nothing.
func TestNodeCreateAndBootstrap(t *testing.T) {
	d := startDaemon(t)
	for _, args := range [][]string{
		{"node", "create", "--site", d.site, "--hostname", "m01", "--sku", "mi300x.192g.8gpu"},
		{"node", "create", "--site", d.site, "--hostname", "m01", "--reason", "x"},
		{"node", "create", "--site", d.site, "--hostname", "m01", "--sku", "s", "--reason", "x", "--ttl", "5s"},
	} {
		if r := d.cli("", args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage): %s", args, r.code, r.stderr)
		}
	}
	if nodes, _ := d.store.ListNodes(context.Background(), lifecycle.NodeFilter{}); len(nodes) != 0 {
		t.Fatalf("refused command lines created nodes: %+v", nodes)
	}
	r := d.cli("", "node", "create", "--site", d.site, "--hostname", "M01", "--sku", "mi300x.192g.8gpu",
		"--reason", "pre-installed", "--ttl", "10m")
	if r.code != 0 || !strings.Contains(r.stdout, "bootstrap_issued") || !strings.Contains(r.stdout, "2026-05-01T00:10:00Z") ||
		strings.Count(r.stdout, "/internal/v1/bootstrap/ticket-") != 1 || !strings.Contains(r.stdout, "sudo sh") {
		t.Fatalf("node create: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	nodes, _ := d.store.ListNodes(context.Background(), lifecycle.NodeFilter{})
	if len(nodes) != 1 || nodes[0].Hostname != "m01" || nodes[0].Status != lifecycle.NodeBootstrapIssued {
		t.Fatalf("nodes %+v", nodes)
	}
	id := nodes[0].ID
	if r := d.cli("", "node", "bootstrap", id); r.code != 2 || !strings.Contains(r.stderr, "--reason") {
		t.Fatalf("without --reason: %d %s", r.code, r.stderr)
	}
	r = d.cli("", "node", "bootstrap", id, "--reason", "script lost", "-o", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"command"`) || !strings.Contains(r.stdout, `"node_id": "`+id+`"`) {
		t.Fatalf("node bootstrap: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = d.cli("", "node", "bootstrap", "m01", "--reason", "by hostname", "-o", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"node_id": "`+id+`"`) {
		t.Fatalf("node bootstrap by hostname: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := d.cli("", "node", "bootstrap", "ghost", "--reason", "x"); r.code != 4 {
		t.Errorf("unknown node: exit %d, want 4 (not found)", r.code)
	}
	if r := d.cli("", "node", "bootstrap", "../../tokens", "--reason", "x"); r.code != 4 {
		t.Errorf("a NODE with slashes: exit %d, want 4 (not found, escaped into one path segment): %s", r.code, r.stderr)
	}
	audit := d.cli("", "audit", "--action", "node.bootstrap")
	if !strings.Contains(audit.stdout, "node/"+id) || !strings.Contains(audit.stdout, "script lost") {
		t.Errorf("audit has no bootstrap entry with its reason:\n%s", audit.stdout)
	}
}
