package admin_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

const (
	adminRole    = lifecycle.RoleAdmin
	operatorRole = lifecycle.RoleOperator
	viewerRole   = lifecycle.RoleViewer
	noToken      = lifecycle.Role("")
	revokedRole  = lifecycle.Role("revoked")
)

const sites = "/api/v1/admin/maas-sites"

// siteBody is a valid create body; with changes applied (nil deletes).
func siteBody(changes map[string]any) map[string]any {
	b := map[string]any{"name": "dc1", "region_code": "dc1", "api_base_url": "http://10.0.0.1:5240/MAAS",
		"pxe_iface": "ens19", "pxe_vlan_vid": 46, "node_pxe_iface": "eno8303"}
	for k, v := range changes {
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}

// site creates a site named name whose MAAS is the simulator.
func (e *env) site(name string) string {
	e.t.Helper()
	return e.siteAt(name, e.maasURL)
}

// siteAt creates a site named name whose MAAS is at url.
func (e *env) siteAt(name, url string) string {
	e.t.Helper()
	r := e.do(adminRole, http.MethodPost, sites, siteBody(map[string]any{"name": name, "api_base_url": url}))
	if r.Code != http.StatusCreated {
		e.t.Fatalf("create site: %d %s", r.Code, r.Body)
	}
	var s lifecycle.Site
	r.decode(e.t, &s)
	return s.ID
}

func onboardBody(site, host, ip string) map[string]any {
	return map[string]any{"site_id": site, "profile_id": "default", "sku_id": "mi300x.192g.8gpu", "hostname": host, "ipmi_ip": ip}
}

// onboard submits one onboarding and returns its id.
func (e *env) onboard(site, host, ip string) string {
	e.t.Helper()
	r := e.do(operatorRole, http.MethodPost, "/api/v1/admin/onboardings", onboardBody(site, host, ip))
	if r.Code != http.StatusCreated {
		e.t.Fatalf("onboard %s: %d %s", host, r.Code, r.Body)
	}
	var out struct {
		OnboardingID string `json:"onboarding_id"`
	}
	r.decode(e.t, &out)
	return out.OnboardingID
}

// waitRun waits until run id reaches state st.
func (e *env) waitRun(id string, st lifecycle.JobState) lifecycle.Run {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r, err := e.store.GetRun(context.Background(), id)
		e.must(err)
		if r.Status == st {
			return r
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("run %s is %s, want %s", id, r.Status, st)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// expect checks an answer's status and, for errors, the problem field.
func expect(t testing.TB, r resp, code int, field string) {
	t.Helper()
	if r.Code != code {
		t.Fatalf("status %d, want %d: %s", r.Code, code, r.Body)
	}
	if code >= 400 {
		if f, _ := r.problem(t); f != field {
			t.Errorf("problem field %q, want %q (%s)", f, field, r.Body)
		}
	}
}

func sitePath(id string, rest ...string) string {
	p := sites + "/" + id
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

var cmpTimes = cmpopts.IgnoreFields(lifecycle.SitePolicy{}, "CreatedAt", "UpdatedAt")

// recoveryAction is the action of recovery path p ("" for none).
func recoveryAction(p string) lifecycle.Action {
	a, _ := answer.RecoveryAction(p)
	return a
}
