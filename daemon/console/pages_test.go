package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestPages: every page renders the store's records as the admin API
// reads them: counts by site and state, the host-name search, a failed
// run's failure class, error, recommended action and stage timeline,
// the batch aggregate, the audit log.
func TestPages(t *testing.T) {
	e := newEnv(t, false)
	failed := e.onboard("bad-gpu-01", "batch-1", lifecycle.JobFailedManualIntervention)
	e.onboard("gpu-02", "batch-2", lifecycle.JobCompleted)
	b := e.signIn(lifecycle.RoleOperator)
	for path, want := range map[string][]string{
		"/console/fleet":                      {"Nodes by site and state (2)", "site-1", "bad-gpu-01", "gpu-02"},
		"/console/fleet?hostname=gpu-02":      {"gpu-02"},
		"/console/nodes/node-bad-gpu-01":      {"sys-bad-gpu-01", failed, "hardware_mismatch", "No action applies to a node that is enrolling"},
		"/console/runs/" + failed:             {"hardware_mismatch", "no BOSS disk", "Recommended action", "configure_storage</strong> attempt 1: failed", "Retry stage…"},
		"/console/batches":                    {"batch-1", "failed"},
		"/console/batches/batch-1":            {"bad-gpu-01", "failed_manual_intervention"},
		"/console/drift":                      {"No open drift findings."},
		"/console/decommissions":              {"No decommissions yet."},
		"/console/audit":                      {"No entries."},
		"/console/nodes/node-gpu-02/activate": {"Activate node", "Reason"},
	} {
		r, page := b.get(path)
		if r.StatusCode != http.StatusOK {
			t.Errorf("%s: %d\n%s", path, r.StatusCode, page)
			continue
		}
		for _, w := range want {
			if !strings.Contains(page, w) {
				t.Errorf("%s lacks %q", path, w)
			}
		}
	}
	if _, page := b.get("/console/fleet?hostname=gpu-02"); strings.Contains(page, "bad-gpu-01</a>") {
		t.Error("the host-name search shows a host that does not match")
	}
	if r, page := b.get("/console/runs/no-such-run"); r.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown run answers %d:\n%s", r.StatusCode, page)
	}
}

// TestRetryWithReason: the operator retries a failed run from its
// confirm page with a reason; the run completes and the audit log names
// the operator's token, the action and the reason, as the API writes it.
func TestRetryWithReason(t *testing.T) {
	e := newEnv(t, false)
	id := e.onboard("bad-gpu-01", "", lifecycle.JobFailedManualIntervention)
	b := e.signIn(lifecycle.RoleOperator)
	_, page := b.get("/console/runs/" + id + "/act/retry")
	if !strings.Contains(page, "Runs the failed stage again") {
		t.Fatalf("the confirm page does not say what the action does:\n%s", page)
	}
	r, _ := b.post("/console/runs/"+id+"/act/retry", csrfOf(t, page), url.Values{"reason": {"BOSS disk reseated"}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/console/runs/"+id {
		t.Fatalf("retry: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	e.waitRun(id, lifecycle.JobCompleted)
	entries, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{TargetID: id})
	must(t, err)
	if len(entries) != 1 || entries[0].Reason != "BOSS disk reseated" || entries[0].Actor != "token:operator:tok-b" {
		t.Fatalf("audit entries %+v: want one retry by token:operator:tok-b with the reason", entries)
	}
	if _, page = b.get("/console/audit"); !strings.Contains(page, "BOSS disk reseated") {
		t.Error("the audit page does not show the retry's reason")
	}
}

// TestRetryNeedsReason: an empty reason is refused by the API's own rule
// and shown; the run does not move.
func TestRetryNeedsReason(t *testing.T) {
	e := newEnv(t, false)
	id := e.onboard("bad-gpu-01", "", lifecycle.JobFailedManualIntervention)
	b := e.signIn(lifecycle.RoleOperator)
	_, page := b.get("/console/runs/" + id + "/act/retry")
	r, body := b.post("/console/runs/"+id+"/act/retry", csrfOf(t, page), url.Values{"reason": {""}})
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "reason is required") {
		t.Fatalf("retry without a reason: %d\n%s", r.StatusCode, body)
	}
	e.waitRun(id, lifecycle.JobFailedManualIntervention)
}

// TestViewerCannotAct: a viewer's pages have no action buttons, its
// confirm pages and forms are refused with 403, and nothing is audited.
func TestViewerCannotAct(t *testing.T) {
	e := newEnv(t, false)
	id := e.onboard("bad-gpu-01", "", lifecycle.JobFailedManualIntervention)
	e.move("node-bad-gpu-01", lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding) // an operator could decommission it
	b := e.signIn(lifecycle.RoleViewer)
	_, page := b.get("/console/runs/" + id)
	if strings.Contains(page, "/act/") || strings.Contains(page, "Retry stage") {
		t.Fatal("a viewer sees action buttons on the run page")
	}
	if _, node := b.get("/console/nodes/node-bad-gpu-01"); strings.Contains(node, "Decommission…") {
		t.Fatal("a viewer sees action buttons on the node page")
	}
	if r, _ := b.get("/console/runs/" + id + "/act/retry"); r.StatusCode != http.StatusForbidden {
		t.Errorf("a viewer's confirm page: %d, want 403", r.StatusCode)
	}
	csrf := csrfOf(t, page)
	for _, p := range []string{"/console/runs/" + id + "/act/retry", "/console/nodes/node-bad-gpu-01/activate", "/console/nodes/node-bad-gpu-01/decommission"} {
		if r, _ := b.post(p, csrf, url.Values{"reason": {"viewer tries"}, "mode": {"soft_reset"}}); r.StatusCode != http.StatusForbidden {
			t.Errorf("a viewer's POST %s: %d, want 403", p, r.StatusCode)
		}
	}
	e.waitRun(id, lifecycle.JobFailedManualIntervention)
	if entries, _ := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{}); len(entries) != 0 {
		t.Fatalf("a refused action was audited: %+v", entries)
	}
}

// TestForgedForm: a form without the session's CSRF token, with another
// session's, or from another origin is refused with 403 and does nothing.
func TestForgedForm(t *testing.T) {
	e := newEnv(t, false)
	id := e.onboard("bad-gpu-01", "", lifecycle.JobFailedManualIntervention)
	b := e.signIn(lifecycle.RoleOperator)
	other := e.signIn(lifecycle.RoleOperator)
	_, page := other.get("/console/fleet")
	path := "/console/runs/" + id + "/act/retry"
	for name, csrf := range map[string]string{"none": "", "another session's": csrfOf(t, page)} {
		if r, _ := b.post(path, csrf, url.Values{"reason": {"forged"}}); r.StatusCode != http.StatusForbidden {
			t.Errorf("CSRF token %s: %d, want 403", name, r.StatusCode)
		}
	}
	_, mine := b.get("/console/fleet")
	form := url.Values{"reason": {"forged"}, "csrf": {csrfOf(t, mine)}}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	r, err := b.c.Do(req)
	must(t, err)
	r.Body.Close()
	if r.StatusCode != http.StatusForbidden {
		t.Errorf("a cross-origin form: %d, want 403", r.StatusCode)
	}
	e.waitRun(id, lifecycle.JobFailedManualIntervention)
	if entries, _ := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{}); len(entries) != 0 {
		t.Fatalf("a forged form was acted on: %+v", entries)
	}
}
