package pki_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

func TestIssueEnrollmentToken(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock()
	st, err := bolt.Open(filepath.Join(t.TempDir(), bolt.FileName), bolt.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	site := lifecycle.Site{ID: "site-1", Name: "maas-1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	pol := lifecycle.DefaultSitePolicy(site.ID)
	must(t, st.CreateSite(ctx, site, pol))
	must(t, st.CreateNode(ctx, lifecycle.Node{ID: "node-1", SiteID: site.ID, Hostname: "h1", SKU: "s", Status: lifecycle.NodeEnrolling}))
	p := openPKI(t, t.TempDir(), clock)

	first, exp, err := p.IssueEnrollmentToken(ctx, st, pol, "node-1")
	must(t, err)
	if want := clock.Now().Add(time.Duration(pol.EnrollmentTokenTTLSeconds) * time.Second); !exp.Equal(want) {
		t.Errorf("expiry %v, want %v (policy TTL)", exp, want)
	}
	second, _, err := p.IssueEnrollmentToken(ctx, st, pol, "node-1")
	must(t, err)
	if len(first) < 40 || first == second || strings.Contains(pki.HashToken(first), first) {
		t.Fatalf("tokens are not fresh, long random strings")
	}
	if _, err := st.ConsumeEnrollmentToken(ctx, first, "node-1", "k"); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Errorf("the plaintext token was stored: consume by plaintext = %v", err)
	}
	if _, err := st.ConsumeEnrollmentToken(ctx, pki.HashToken(first), "node-1", "k"); lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Errorf("earlier token still usable after a new one was issued: %v", err)
	}
	if _, err := st.ConsumeEnrollmentToken(ctx, pki.HashToken(second), "node-1", "k"); err != nil {
		t.Errorf("newest token rejected: %v", err)
	}
	if _, _, err := p.IssueEnrollmentToken(ctx, st, lifecycle.SitePolicy{}, "node-1"); lifecycle.ErrorField(err) != "enrollment_token_ttl_seconds" {
		t.Errorf("policy without TTL: %v, want invalid enrollment_token_ttl_seconds", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
