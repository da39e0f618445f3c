package console_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// move transitions node id from one state to another as actor.
func (e *env) move(id string, from, to lifecycle.NodeState, actor lifecycle.Actor) {
	e.t.Helper()
	_, err := e.store.TransitionNode(context.Background(), lifecycle.NodeTransition{NodeID: id, From: from, To: to,
		Context: lifecycle.TransitionContext{Actor: actor}})
	must(e.t, err)
}

// TestActivateNode: the operator activates a quarantined node whose
// machine MAAS shows Deployed from its confirm page with a reason; the
// node is active and the audit log names the action, actor and reason.
func TestActivateNode(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	e.onboard("gpu-02", "", lifecycle.JobCompleted)
	e.move("node-gpu-02", lifecycle.NodeEnrolling, lifecycle.NodeQuarantined, lifecycle.ActorOnboarding)
	_, err := e.store.UpdateNodeMaasState(ctx, "node-gpu-02", func(s *lifecycle.NodeMaasState) error {
		s.SiteID, s.MaasSystemID, s.Present, s.LastStatus = "site-1", "sys-gpu-02", true, "Deployed"
		return nil
	})
	must(t, err)
	b := e.signIn(lifecycle.RoleOperator)
	_, page := b.get("/console/nodes/node-gpu-02/activate")
	r, _ := b.post("/console/nodes/node-gpu-02/activate", csrfOf(t, page), url.Values{"reason": {"machine checked"}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/console/nodes/node-gpu-02" {
		t.Fatalf("activate: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	if n, _ := e.store.GetNode(ctx, "node-gpu-02"); n.Status != lifecycle.NodeActive {
		t.Fatalf("the node is %s after activate, want active", n.Status)
	}
	entries, err := e.store.ListAudit(ctx, lifecycle.AuditFilter{Action: "node.activate", TargetID: "node-gpu-02"})
	must(t, err)
	if len(entries) != 1 || entries[0].Reason != "machine checked" || entries[0].Actor != "token:operator:tok-b" {
		t.Fatalf("audit entries %+v: want the activation by token:operator:tok-b with its reason", entries)
	}
	// Now active: the API's refusal is shown, and nothing changes.
	_, page = b.get("/console/nodes/node-gpu-02/activate")
	if r, body := b.post("/console/nodes/node-gpu-02/activate", csrfOf(t, page), url.Values{"reason": {"again"}}); r.StatusCode != http.StatusConflict ||
		!strings.Contains(body, "only a quarantined node is activated") {
		t.Fatalf("activating an active node: %d\n%s", r.StatusCode, body)
	}
}

var runLink = regexp.MustCompile(`^/console/runs/([^/]+)$`)

// TestDecommissionStart: the confirm page shows the chosen mode's stages;
// its form starts the decommission once (a double submit of the same
// form replays the same run) with the mode, the storage cleanup and the
// reason, audited, and lands on the run's page.
func TestDecommissionStart(t *testing.T) {
	e := newEnv(t, false)
	e.onboard("gpu-02", "", lifecycle.JobCompleted)
	e.move("node-gpu-02", lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding)
	b := e.signIn(lifecycle.RoleOperator)
	_, page := b.get("/console/nodes/node-gpu-02/decommission?mode=reimage")
	for _, want := range []string{"Starts a reimage decommission", string(lifecycle.ModeReimage.Stages()[0]), `name="idempotency_key"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("the confirm page lacks %q:\n%s", want, page)
		}
	}
	_, page = b.get("/console/nodes/node-gpu-02/decommission")
	key := regexp.MustCompile(`name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(page)[1]
	form := url.Values{"mode": {"soft_reset"}, "storage_cleanup": {"local"}, "reason": {"tenant left"}, "idempotency_key": {key}}
	var ids []string
	for range 2 {
		r, _ := b.post("/console/nodes/node-gpu-02/decommission", csrfOf(t, page), form)
		m := runLink.FindStringSubmatch(r.Header.Get("Location"))
		if r.StatusCode != http.StatusSeeOther || m == nil {
			t.Fatalf("decommission: %d %s", r.StatusCode, r.Header.Get("Location"))
		}
		ids = append(ids, m[1])
	}
	if ids[0] != ids[1] {
		t.Fatalf("a double submit started two decommissions: %v", ids)
	}
	run, err := e.store.GetRun(context.Background(), ids[0])
	must(t, err)
	if run.Kind != lifecycle.RunDecommission || run.Mode != lifecycle.ModeSoftReset || run.StorageCleanup != lifecycle.StorageLocal ||
		run.Reason != "tenant left" || run.RequestedBy != "token:operator:tok-b" {
		t.Fatalf("the decommission run: %+v", run)
	}
	entries, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{Action: "decommission.create"})
	must(t, err)
	if len(entries) != 1 || entries[0].Reason != "tenant left" {
		t.Fatalf("audit entries %+v: want one decommission.create with the reason", entries)
	}
	if _, page = b.get("/console/runs/" + ids[0]); !strings.Contains(page, "by token:operator:tok-b") {
		t.Errorf("the run page does not name who requested it:\n%s", page)
	}
}

// TestRunActionsFollowState: a failed run offers only the recovery
// actions valid in its state, its recommended one first and marked; a
// completed run offers none; a run with no recorded requester does not
// show an empty "by".
func TestRunActionsFollowState(t *testing.T) {
	e := newEnv(t, false)
	failed := e.onboard("bad-gpu-01", "", lifecycle.JobFailedManualIntervention)
	done := e.onboard("gpu-02", "", lifecycle.JobCompleted)
	b := e.signIn(lifecycle.RoleOperator)
	_, page := b.get("/console/runs/" + failed)
	got := regexp.MustCompile(`/act/([a-z-]+)"`).FindAllStringSubmatch(page, -1)
	var paths []string
	for _, m := range got {
		paths = append(paths, m[1])
	}
	// hardware_mismatch recommends retry_stage; mark-manual-intervention
	// already holds for a run parked for manual intervention.
	if want := "retry resume rerun restart-clean cancel adopt"; strings.Join(paths, " ") != want {
		t.Errorf("a failed run offers %v, want %s", paths, want)
	}
	if !strings.Contains(page, `class="button recommended" href="/console/runs/`+failed+`/act/retry"`) {
		t.Error("the recommended action is not marked")
	}
	_, page = b.get("/console/runs/" + done)
	if strings.Contains(page, "/act/") {
		t.Error("a completed run offers recovery actions")
	}
	if strings.Contains(page, " by </dd>") || strings.Contains(page, " by <") {
		t.Error("the run page shows an empty requester")
	}
}

// TestNodeActionsFollowState: the node page offers Activate only for a
// quarantined node and Decommission only where one may start (the
// lifecycle's rules the API enforces), and says so when none applies.
func TestNodeActionsFollowState(t *testing.T) {
	e := newEnv(t, false)
	e.onboard("gpu-02", "", lifecycle.JobCompleted)
	b := e.signIn(lifecycle.RoleOperator)
	for _, c := range []struct {
		from, to           lifecycle.NodeState
		actor              lifecycle.Actor
		activate, decommis bool
	}{
		{"", lifecycle.NodeEnrolling, "", false, false},
		{lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding, false, true},
		{lifecycle.NodeActive, lifecycle.NodeQuarantined, lifecycle.ActorReconciler, true, true},
	} {
		if c.from != "" {
			e.move("node-gpu-02", c.from, c.to, c.actor)
		}
		_, page := b.get("/console/nodes/node-gpu-02")
		if got := strings.Contains(page, "Activate…"); got != c.activate {
			t.Errorf("a node that is %s: Activate offered %v, want %v", c.to, got, c.activate)
		}
		if got := strings.Contains(page, "Decommission…"); got != c.decommis {
			t.Errorf("a node that is %s: Decommission offered %v, want %v", c.to, got, c.decommis)
		}
		if none := strings.Contains(page, "No action applies"); none != (!c.activate && !c.decommis) {
			t.Errorf("a node that is %s: 'No action applies' shown %v", c.to, none)
		}
	}
}
