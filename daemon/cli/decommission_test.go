package cli_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// activeNode stores an active node of the daemon's site.
func (d *daemon) activeNode(id, host string) {
	d.t.Helper()
	ctx := context.Background()
	d.must(d.store.CreateNode(ctx, lifecycle.Node{ID: id, SiteID: d.site, Hostname: host, Status: lifecycle.NodeEnrolling}))
	_, err := d.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: id, From: lifecycle.NodeEnrolling,
		To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	d.must(err)
}

// Bad flag values are refused before anything is sent, naming the value.
func TestNodeDecommissionBadInput(t *testing.T) {
	d := startDaemon(t)
	d.activeNode("n1", "c07u61")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--mode", "wipe", "--reason", "r"}, `--mode "wipe" is not one of soft_reset, reimage, full_decommission, storage_cleanup`},
		{[]string{"--reason", "r"}, `--mode "" is not one of`},
		{[]string{"--mode", "reimage", "--erase", "dd", "--reason", "r"}, `--erase "dd" is not one of none, quick, secure`},
		{[]string{"--mode", "soft_reset", "--storage-cleanup", "nfs", "--reason", "r"}, `--storage-cleanup "nfs" is not one of none, local, weka, all`},
		{[]string{"--mode", "soft_reset"}, "--reason is required"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := d.cli("", append([]string{"node", "decommission", "n1"}, tt.args...)...)
			if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, cli.ExitUsage, tt.want)
			}
		})
	}
	if runs, _ := d.store.ListRuns(context.Background(), lifecycle.RunFilter{NodeID: "n1"}); len(runs) != 0 {
		t.Fatalf("refused input created runs: %+v", runs)
	}
	r := d.cli("", "node", "decommission", "n1", "--mode", "soft_reset", "--erase", "secure", "--reason", "r")
	if r.code != 6 || !strings.Contains(r.stderr, "erase") {
		t.Fatalf("erase on soft reset: exit %d %s; want 6 (refused by the API) naming erase", r.code, r.stderr)
	}
}

func TestDecommissionVerbs(t *testing.T) {
	d := startDaemon(t)
	d.activeNode("n1", "c07u61")
	d.activeNode("n2", "bad-2")
	out := d.mustJSON("node", "decommission", "n1", "--mode", "reimage", "--erase", "quick", "--storage-cleanup", "local",
		"--reason", "tenant_transition", "--idempotency-key", "k1")
	id, _ := out["decommission_id"].(string)
	if id == "" || out["mode"] != "reimage" || out["status"] != "pending" {
		t.Fatalf("answer = %v", out)
	}
	if r := d.cli("", "decommission", "watch", id); r.code != cli.ExitOK || !strings.Contains(r.stdout, "completed") {
		t.Fatalf("watch: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	again := d.mustJSON("node", "decommission", "n1", "--mode", "reimage", "--erase", "quick", "--storage-cleanup", "local",
		"--reason", "tenant_transition", "--idempotency-key", "k1")
	if again["decommission_id"] != id {
		t.Errorf("retried request answered %v, want %s", again["decommission_id"], id)
	}
	r := d.cli("", "decommission", "get", id)
	if r.code != cli.ExitOK || !strings.Contains(r.stdout, "reimage") || !strings.Contains(r.stdout, "SEQ") {
		t.Fatalf("get: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	d.wantJournalBy("decommission", id)

	bad := d.mustJSON("node", "decommission", "n2", "--mode", "soft_reset", "--reason", "tenant_transition")["decommission_id"].(string)
	r = d.cli("", "decommission", "watch", bad, "-o", "json")
	if r.code != cli.ExitOutcome {
		t.Fatalf("watch of a failing run: exit %d, want %d\n%s", r.code, cli.ExitOutcome, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var last struct{ Decommission struct{ Status string } }
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Decommission.Status != "failed_manual_intervention" {
		t.Fatalf("last watch line %q (%v), want the failed run", lines[len(lines)-1], err)
	}
	if r = d.cli("", "node", "decommission", "n2", "--mode", "full_decommission", "--reason", "r"); r.code != 5 || !strings.Contains(r.stderr, bad) {
		t.Fatalf("second decommission of a busy node: exit %d %s; want 5 naming %s", r.code, r.stderr, bad)
	}

	list := d.cli("", "decommission", "list", "--status", "failed_manual_intervention")
	if list.code != cli.ExitOK || !strings.Contains(list.stdout, bad) || strings.Contains(list.stdout, id) {
		t.Fatalf("list --status: exit %d\n%s%s", list.code, list.stdout, list.stderr)
	}
	if r = d.cli("", "decommission", "list", "--mode", "wipe"); r.code != cli.ExitUsage || !strings.Contains(r.stderr, `"wipe"`) {
		t.Fatalf("list --mode wipe: exit %d %s", r.code, r.stderr)
	}
	if r = d.cli("", "decommission", "cancel", bad); r.code != cli.ExitUsage {
		t.Fatalf("cancel without --reason: exit %d", r.code)
	}
	if r = d.cli("", "decommission", "cancel", bad, "--reason", "operator gave up"); r.code != cli.ExitOK || !strings.Contains(r.stdout, "compensating") {
		t.Fatalf("cancel: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		run, err := d.store.GetRun(context.Background(), bad)
		d.must(err)
		if run.Status == lifecycle.JobCancelled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("run is %s after cancel", run.Status)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
