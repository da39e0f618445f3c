package pki_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

// TestIssueBootstrapTicket: the store keeps only the ticket's hash, with
// the asked lifetime and the bootstrap purpose; a new ticket supersedes
// the previous one.
func TestIssueBootstrapTicket(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock()
	st, err := bolt.Open(filepath.Join(t.TempDir(), bolt.FileName), bolt.Options{Now: clock.Now})
	must(t, err)
	t.Cleanup(func() { st.Close() })
	site := lifecycle.Site{ID: "site-1", Name: "maas-1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	must(t, st.CreateSite(ctx, site, lifecycle.DefaultSitePolicy(site.ID)))
	must(t, st.CreateNode(ctx, lifecycle.Node{ID: "node-1", SiteID: site.ID, Hostname: "h1", SKU: "s", Status: lifecycle.NodeBootstrapIssued}))
	p := openPKI(t, t.TempDir(), clock)

	first, exp, err := p.IssueBootstrapTicket(ctx, st, "node-1", 10*time.Minute)
	must(t, err)
	if !exp.Equal(clock.Now().Add(10 * time.Minute)) {
		t.Errorf("expiry %v, want ten minutes from now", exp)
	}
	second, _, err := p.IssueBootstrapTicket(ctx, st, "node-1", time.Hour)
	must(t, err)
	if len(first) != 43 || first == second { // the agent API refuses other lengths unread
		t.Fatalf("tickets %q, %q are not fresh 43-character strings", first, second)
	}
	if _, err := st.ConsumeBootstrapTicket(ctx, first); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Errorf("the plaintext ticket was stored: fetch by plaintext = %v", err)
	}
	if _, err := st.ConsumeBootstrapTicket(ctx, pki.HashToken(first)); lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Errorf("the superseded ticket still fetches: %v", err)
	}
	got, err := st.ConsumeBootstrapTicket(ctx, pki.HashToken(second))
	if err != nil || got.NodeID != "node-1" {
		t.Errorf("newest ticket: %+v, %v", got, err)
	}
	if _, _, err := p.IssueBootstrapTicket(ctx, st, "node-1", 0); lifecycle.ErrorCode(err) != lifecycle.CodeInvalid {
		t.Errorf("no lifetime: %v, want invalid", err)
	}
}
