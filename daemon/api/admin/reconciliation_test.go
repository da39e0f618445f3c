package admin_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
)

const recon = "/api/v1/admin/reconciliation"

// fakeRecon records the resyncs asked for.
type fakeRecon struct {
	mu        sync.Mutex
	sites     []string
	refollows int
}

// Refollow counts the site-list changes the feed heard of.
func (f *fakeRecon) Refollow() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refollows++
}

func (f *fakeRecon) refollowed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refollows
}

func (f *fakeRecon) Resync(_ context.Context, siteID string) (reconcile.Report, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sites = append(f.sites, siteID)
	return reconcile.Report{Nodes: 2, Drifted: 1}, nil
}

// driftedNodes seeds two bound nodes of site: one drifted, one in sync.
func (e *env) driftedNodes(site string) (drifted, fine string) {
	e.t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	for i, id := range []string{"node-d", "node-ok", "node-new"} {
		e.must(e.store.CreateNode(ctx, lifecycle.Node{ID: id + site, SiteID: site, Hostname: id, Status: lifecycle.NodeEnrolling}))
		_, err := e.store.UpdateNode(ctx, id+site, func(n *lifecycle.Node) error { n.MaasSystemID = "sys" + id; return nil })
		e.must(err)
		if i == 2 {
			continue // never reconciled
		}
		_, err = e.store.UpdateNodeMaasState(ctx, id+site, func(s *lifecycle.NodeMaasState) error {
			s.LastReconciledAt, s.LastStatus = &now, "Deployed"
			if i == 0 {
				s.Drift = lifecycle.Drift{DriftDetected: true, DriftRule: lifecycle.DriftReleased, DriftSeverity: lifecycle.SeverityCritical, DriftDetectedAt: &now}
			}
			return nil
		})
		e.must(err)
	}
	return "node-d" + site, "node-ok" + site
}

func TestReconciliationAPI(t *testing.T) {
	e := newEnv(t)
	site := e.site("dc1")
	drifted, fine := e.driftedNodes(site)

	r := e.do(viewerRole, http.MethodGet, recon+"/status", nil)
	var st struct {
		Sites []struct {
			SiteID                           string `json:"site_id"`
			Nodes, OK, Drifted, Unreconciled int
		} `json:"sites"`
	}
	r.decode(t, &st)
	if r.Code != http.StatusOK || len(st.Sites) != 1 || st.Sites[0].Nodes != 3 || st.Sites[0].OK != 1 || st.Sites[0].Drifted != 1 || st.Sites[0].Unreconciled != 1 {
		t.Fatalf("status %d %s", r.Code, r.Body)
	}
	r = e.do(viewerRole, http.MethodGet, recon+"/drift", nil)
	var dl struct{ Drift []lifecycle.NodeMaasState }
	r.decode(t, &dl)
	if len(dl.Drift) != 1 || dl.Drift[0].NodeID != drifted {
		t.Fatalf("drift list %s", r.Body)
	}

	if r = e.do(viewerRole, http.MethodPost, recon+"/drift/"+drifted+"/resolve", nil); r.Code != http.StatusForbidden {
		t.Fatalf("a viewer resolved drift: %d", r.Code)
	}
	r = e.do(operatorRole, http.MethodPost, recon+"/drift/"+drifted+"/resolve", nil, "X-Audit-Reason", "reimaged by hand")
	var res lifecycle.NodeMaasState
	r.decode(t, &res)
	if r.Code != http.StatusOK || res.DriftDetected || res.DriftResolvedAt == nil || res.DriftResolvedBy == "" || res.DriftRule != lifecycle.DriftReleased {
		t.Fatalf("resolve %d %s", r.Code, r.Body)
	}
	if r = e.do(operatorRole, http.MethodPost, recon+"/drift/"+drifted+"/resolve", nil); r.Code != http.StatusConflict {
		t.Fatalf("resolving twice: %d", r.Code)
	}
	if r = e.do(operatorRole, http.MethodPost, recon+"/drift/"+fine+"/resolve", nil); r.Code != http.StatusConflict {
		t.Fatalf("resolving a node without drift: %d", r.Code)
	}
	if r = e.do(operatorRole, http.MethodPost, recon+"/drift/nope/resolve", nil); r.Code != http.StatusNotFound {
		t.Fatalf("resolving an unknown node: %d", r.Code)
	}

	if r = e.do(operatorRole, http.MethodPost, recon+"/run", map[string]string{"site_id": "nope"}); r.Code != http.StatusNotFound {
		t.Fatalf("run for an unknown site: %d", r.Code)
	}
	if r = e.do(operatorRole, http.MethodPost, recon+"/run", map[string]string{}); r.Code != http.StatusUnprocessableEntity {
		t.Fatalf("run without a site: %d", r.Code)
	}
	if r = e.do(operatorRole, http.MethodPost, recon+"/run", map[string]string{"site_id": site}); r.Code != http.StatusOK {
		t.Fatalf("run: %d %s", r.Code, r.Body)
	}
	if d := cmp.Diff([]string{site}, e.recon.sites); d != "" {
		t.Fatalf("resyncs (-want +got):\n%s", d)
	}
	for _, c := range []struct{ action, target, reason string }{
		{"reconciliation.resolve_drift", drifted, "reimaged by hand"}, {"reconciliation.run", site, ""},
	} {
		es, err := e.store.ListAudit(context.Background(), lifecycle.AuditFilter{Action: c.action, TargetID: c.target})
		e.must(err)
		if len(es) != 1 || es[0].Actor == "" || es[0].Reason != c.reason {
			t.Fatalf("audit of %s: %+v", c.action, es)
		}
	}
	if r = e.do(noToken, http.MethodGet, recon+"/status", nil); r.Code != http.StatusUnauthorized {
		t.Fatalf("unauthenticated status: %d", r.Code)
	}
}
