package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// enrollment issues the token "enroll-<node>" valid for an hour.
type enrollment struct{}

func (enrollment) IssueEnrollmentToken(_ context.Context, _ lifecycle.EnrollmentStore, _ lifecycle.SitePolicy, node string) (string, time.Time, error) {
	return "enroll-" + node, time.Date(2026, 5, 1, 1, 0, 0, 0, time.UTC), nil
}

func activeNode(d *daemon, id, serial string) {
	ctx := context.Background()
	d.must(d.store.CreateNode(ctx, lifecycle.Node{ID: id, SiteID: d.site, Hostname: "h-" + id, Status: lifecycle.NodeEnrolling}))
	_, err := d.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: id, From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	d.must(err)
	_, err = d.store.UpdateNode(ctx, id, func(n *lifecycle.Node) error { n.AgentCertSerial = serial; return nil })
	d.must(err)
}

func TestNodeRevokeCertificate(t *testing.T) {
	d := startDaemon(t)
	activeNode(d, "n1", "1f")
	if r := d.cli("", "node", "revoke-certificate", "n1"); r.code != 2 || !strings.Contains(r.stderr, "--reason") {
		t.Fatalf("without --reason: %d %s", r.code, r.stderr)
	}
	if n, _ := d.store.GetNode(context.Background(), "n1"); n.AgentCertSerial != "1f" {
		t.Fatalf("a refused command line revoked the certificate")
	}
	r := d.cli("", "node", "revoke-certificate", "n1", "--reason", "host stolen")
	if r.code != 0 || !strings.Contains(r.stdout, "active") || !strings.Contains(r.stdout, "node enrollment-token n1") {
		t.Fatalf("revoke-certificate: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if n, _ := d.store.GetNode(context.Background(), "n1"); n.AgentCertSerial != "" {
		t.Errorf("serial after revoke = %q, want none", n.AgentCertSerial)
	}
	audit := d.cli("", "audit", "--action", "node.revoke_certificate")
	if !strings.Contains(audit.stdout, "node/n1") || !strings.Contains(audit.stdout, "host stolen") {
		t.Errorf("audit has no revoke entry with its reason:\n%s", audit.stdout)
	}
	if r := d.cli("", "node", "revoke-certificate", "ghost", "--reason", "x"); r.code != 4 {
		t.Errorf("unknown node: exit %d, want 4 (not found)", r.code)
	}
}

func TestNodeEnrollmentToken(t *testing.T) {
	d := startDaemon(t)
	activeNode(d, "n1", "")
	if r := d.cli("", "node", "enrollment-token", "n1"); r.code != 2 || !strings.Contains(r.stderr, "--reason") {
		t.Fatalf("without --reason: %d %s", r.code, r.stderr)
	}
	r := d.cli("", "node", "enrollment-token", "n1", "--reason", "re-enroll after revoke")
	if r.code != 0 || strings.Count(r.stdout, "enroll-n1") != 1 {
		t.Fatalf("printed token: %d %s %s; want it shown once", r.code, r.stdout, r.stderr)
	}

	out := filepath.Join(t.TempDir(), "enrollment-token")
	d.must(os.WriteFile(out, []byte("old-token\n"), 0o644)) // a refused token an operator replaces
	r = d.cli("", "node", "enrollment-token", "n1", "--reason", "x", "--output", out, "-o", "json")
	if r.code != 0 || strings.Contains(r.stdout, "enroll-n1") || !strings.Contains(r.stdout, out) {
		t.Fatalf("--output: %d %s %s; want the file named and the token not printed", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(out)
	d.must(err)
	fi, err := os.Stat(out)
	d.must(err)
	if string(b) != "enroll-n1\n" || fi.Mode().Perm() != 0o600 {
		t.Errorf("token file = %q mode %v, want the token, 0600", b, fi.Mode().Perm())
	}
	if r := d.cli("", "node", "enrollment-token", "n1", "--reason", "x", "--output", filepath.Join(t.TempDir(), "no", "dir")); r.code != 7 {
		t.Errorf("unwritable --output: exit %d, want 7 (outcome)", r.code)
	}
	if audit := d.cli("", "audit", "--action", "node.enrollment_token"); strings.Count(audit.stdout, "node/n1") != 3 {
		t.Errorf("audit entries for three issued tokens:\n%s", audit.stdout)
	}
}
