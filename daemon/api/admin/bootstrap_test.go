package admin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
)

// ticketAnswer is the answer of POST /nodes and /nodes/{id}/bootstrap.
type ticketAnswer struct {
	NodeID       string `json:"node_id"`
	Hostname     string
	Status       string
	OnboardingID string `json:"onboarding_id"`
	ExpiresAt    string `json:"expires_at"`
	URL          string
	CloudInitURL string `json:"cloud_init_url"`
	Command      string
	CABundlePEM  string `json:"ca_bundle_pem"`
}

// ticket is the plaintext ticket inside the answer's URL.
func (a ticketAnswer) ticket(t *testing.T) string {
	t.Helper()
	rest, ok := strings.CutPrefix(a.URL, "https://region.example:5291/internal/v1/bootstrap/")
	tk, mode, _ := strings.Cut(rest, "?")
	if !ok || mode != "mode=shell" || len(tk) < 40 {
		t.Fatalf("url %q is not the agent API's bootstrap route with a ticket", a.URL)
	}
	return tk
}

func (e *env) createManual(site, host string, extra map[string]any) (resp, ticketAnswer) {
	e.t.Helper()
	body := map[string]any{"site_id": site, "hostname": host, "sku": "mi300x.192g.8gpu", "reason": "pre-installed host"}
	for k, v := range extra {
		body[k] = v
	}
	r := e.do(operatorRole, http.MethodPost, "/api/v1/admin/nodes", body)
	var a ticketAnswer
	if r.Code == http.StatusCreated {
		r.decode(e.t, &a)
	}
	return r, a
}

// TestCreateNodeManual: the node is created in bootstrap_issued with a
// manual onboarding and a ticket the store keeps only hashed; the answer
// carries the command with the daemon's CA; the ticket reaches neither
// the audit log nor the logs.
func TestCreateNodeManual(t *testing.T) {
	e := newEnv(t)
	site := e.site("dc1")
	r, a := e.createManual(site, "GPU-M01", nil)
	expect(t, r, http.StatusCreated, "")
	tk := a.ticket(t)
	if a.Hostname != "gpu-m01" || a.Status != "bootstrap_issued" || a.OnboardingID == "" || a.CABundlePEM != string(e.pki.CABundlePEM()) {
		t.Fatalf("answer %+v", a)
	}
	if !strings.Contains(a.Command, "--cacert") || !strings.Contains(a.Command, "'"+a.URL+"'") || !strings.Contains(a.Command, "sudo sh") {
		t.Errorf("command %q does not fetch the url checked against the CA and run it", a.Command)
	}
	n, err := e.store.GetNode(context.Background(), a.NodeID)
	e.must(err)
	run, err := e.store.GetRun(context.Background(), a.OnboardingID)
	e.must(err)
	if n.Status != lifecycle.NodeBootstrapIssued || run.NodeID != n.ID || run.OnboardingMode != lifecycle.OnboardManual ||
		run.Kind != lifecycle.RunOnboarding {
		t.Fatalf("node %+v, run %+v", n, run)
	}
	if n.GPUsTotal != 8 || n.RegionCode != "dc1" || n.Port != lifecycle.DefaultNodePort {
		t.Errorf("node gpus_total %d, region %q, port %d; want the catalog's 8, the site's region dc1, port 22",
			n.GPUsTotal, n.RegionCode, n.Port)
	}
	if strings.Contains(e.logs.String(), tk) || strings.Contains(string(e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit", nil).Body), tk) {
		t.Error("the ticket reached the logs or the audit log")
	}
	if got, err := e.store.ConsumeBootstrapTicket(context.Background(), pki.HashToken(tk)); err != nil || got.NodeID != n.ID {
		t.Errorf("the ticket's hash fetches nothing: %+v %v", got, err)
	}
	if _, err := e.store.ConsumeBootstrapTicket(context.Background(), tk); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Errorf("the plaintext ticket was stored: %v", err)
	}
	view := e.do(viewerRole, http.MethodGet, "/api/v1/admin/onboardings/"+a.OnboardingID, nil)
	if !strings.Contains(string(view.Body), `"onboarding_mode":"manual"`) {
		t.Errorf("the onboarding does not say it is manual: %s", view.Body)
	}
}

// TestCreateNodeRefuses: bad input names its field (422), a taken host
// name is a conflict, a viewer is forbidden; none creates a node.
func TestCreateNodeRefuses(t *testing.T) {
	e := newEnv(t)
	site := e.site("dc1")
	_, first := e.createManual(site, "m01", nil)
	for _, tc := range []struct {
		name  string
		body  map[string]any
		code  int
		field string
	}{
		{"no site", map[string]any{"site_id": ""}, 422, "site_id"},
		{"unknown site", map[string]any{"site_id": "nope"}, 422, "site_id"},
		{"bad hostname", map[string]any{"hostname": "a b"}, 422, "hostname"},
		{"no sku", map[string]any{"sku": ""}, 422, "sku"},
		{"bad sku", map[string]any{"sku": "x/y"}, 422, "sku"},
		{"sku not in the catalog", map[string]any{"sku": "zz9.1g.1gpu"}, 422, "sku"},
		{"no reason", map[string]any{"reason": ""}, 422, "reason"},
		{"ttl too short", map[string]any{"ticket_ttl_seconds": 5}, 422, "ticket_ttl_seconds"},
		{"ttl past the policy", map[string]any{"ticket_ttl_seconds": 99999999}, 422, "ticket_ttl_seconds"},
		// The token TTL is 7200 s, the enrollment timeout 1800 s: a ticket
		// must not outlive the manual run's wait.
		{"ttl past the enrollment timeout", map[string]any{"ticket_ttl_seconds": 3600}, 422, "ticket_ttl_seconds"},
		{"hostname taken", map[string]any{"hostname": "M01"}, 409, ""},
		{"unknown field", map[string]any{"ipmi_ip": "10.0.0.1"}, 400, "ipmi_ip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host := "m02"
			if h, ok := tc.body["hostname"]; ok {
				host = h.(string)
				delete(tc.body, "hostname")
			}
			r, _ := e.createManual(site, host, tc.body)
			if r.Code != tc.code {
				t.Fatalf("status %d, want %d: %s", r.Code, tc.code, r.Body)
			}
			if tc.name == "hostname taken" && !strings.Contains(string(r.Body), "node bootstrap "+first.NodeID) {
				t.Errorf("a host name held by a bootstrap_issued node does not point at node bootstrap: %s", r.Body)
			}
			if tc.field != "" {
				if f, _ := r.problem(t); f != tc.field {
					t.Errorf("field %q, want %q", f, tc.field)
				}
			}
		})
	}
	r := e.do(viewerRole, http.MethodPost, "/api/v1/admin/nodes", map[string]any{"site_id": site, "hostname": "m03",
		"sku": "s", "reason": "r"})
	expect(t, r, http.StatusForbidden, "")
	nodes, err := e.store.ListNodes(context.Background(), lifecycle.NodeFilter{SiteID: site})
	e.must(err)
	if len(nodes) != 1 || nodes[0].ID != first.NodeID {
		t.Fatalf("refused requests created nodes: %+v", nodes)
	}
}

// TestReissueBootstrap: a new ticket stops the old one; a failed manual
// onboarding resumes (audited); an enrolled node and an unknown one are
// refused.
func TestReissueBootstrap(t *testing.T) {
	e := newEnv(t)
	site := e.site("dc1")
	_, a := e.createManual(site, "bad-m1", nil) // the test workflow fails bad- hosts
	e.waitRun(a.OnboardingID, lifecycle.JobFailedManualIntervention)
	path := "/api/v1/admin/nodes/" + a.NodeID + "/bootstrap"
	r := e.do(operatorRole, http.MethodPost, path, map[string]any{"reason": "script lost", "ticket_ttl_seconds": 600})
	expect(t, r, http.StatusCreated, "")
	var b ticketAnswer
	r.decode(t, &b)
	ctx := context.Background()
	if _, err := e.store.ConsumeBootstrapTicket(ctx, pki.HashToken(a.ticket(t))); lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Errorf("the first ticket still fetches: %v", err)
	}
	if b.OnboardingID != a.OnboardingID {
		t.Errorf("reissue made onboarding %s, want the failed %s resumed", b.OnboardingID, a.OnboardingID)
	}
	audit, err := e.store.ListAudit(ctx, lifecycle.AuditFilter{TargetID: a.OnboardingID, Action: string(lifecycle.ActionResume)})
	e.must(err)
	if len(audit) != 1 || audit[0].Reason != "script lost" {
		t.Errorf("resume audit %+v", audit)
	}
	if _, err := e.store.ConsumeBootstrapTicket(ctx, pki.HashToken(b.ticket(t))); err != nil {
		t.Errorf("the new ticket does not fetch: %v", err)
	}
	expect(t, e.do(operatorRole, http.MethodPost, path, map[string]any{}), http.StatusUnprocessableEntity, "reason")
	_, err = e.store.UpdateNode(ctx, a.NodeID, func(n *lifecycle.Node) error { now := time.Now(); n.EnrolledAt = &now; return nil })
	e.must(err)
	expect(t, e.do(operatorRole, http.MethodPost, path, map[string]any{"reason": "again"}), http.StatusConflict, "")
	expect(t, e.do(operatorRole, http.MethodPost, "/api/v1/admin/nodes/nope/bootstrap", map[string]any{"reason": "x"}),
		http.StatusNotFound, "")
}
