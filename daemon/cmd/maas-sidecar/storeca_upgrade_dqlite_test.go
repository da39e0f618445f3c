//go:build dqlite

package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/canonical/go-dqlite/app"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// earlierReleaseTLS is the member TLS of the releases before the store
// CA: go-dqlite's SimpleTLSConfig over an agent-CA member certificate,
// accepting any client certificate of the agent CA.
func earlierReleaseTLS(t *testing.T, p *pki.PKI) *dqlite.TLS {
	t.Helper()
	cert, err := p.LegacyMemberCertificate("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	listen, dial := app.SimpleTLSConfig(cert, p.CertPool())
	return &dqlite.TLS{Listen: listen, Dial: dial}
}

// rolling is a 3-member store cluster whose members restart one at a
// time with another TLS.
type rolling struct {
	dirs, addrs []string
	stores      []*dqlite.Store
	seq         int
}

func (r *rolling) start(t *testing.T, i int, tls *dqlite.TLS) {
	t.Helper()
	opts := dqlite.Options{Address: r.addrs[i], TLS: tls, Timeout: 10 * time.Second}
	if i > 0 {
		opts.Join = r.addrs[:1]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := dqlite.Open(ctx, r.dirs[i], opts)
	if err != nil {
		t.Fatalf("member %d: %v", i, err)
	}
	r.stores[i] = st
}

// write creates a site through member i: the cluster has quorum.
func (r *rolling) write(t *testing.T, i int, when string) {
	t.Helper()
	r.seq++
	id := fmt.Sprintf("site-%d", r.seq)
	site := lifecycle.Site{ID: id, Name: "maas-" + id, RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	if err := r.stores[i].CreateSite(context.Background(), site, lifecycle.DefaultSitePolicy(id)); err != nil {
		t.Fatalf("%s: a write through member %d: %v", when, i, err)
	}
}

// TestRollingUpgradeToTheStoreCA upgrades a running 3-member cluster of
// the earlier release's member TLS to the store CA as docs/operations.md
// says: every member restarted with member_trust transition, one at a
// time, then every member restarted with store_ca, one at a time. Writes
// succeed while each member is down and after it is back (quorum kept
// throughout), an agent certificate is refused by an upgraded member at
// every step, and at the end no member accepts an agent-CA certificate.
func TestRollingUpgradeToTheStoreCA(t *testing.T) {
	p, err := openPKI(t.TempDir()) // every member shares these files
	if err != nil {
		t.Fatal(err)
	}
	agent := agentCertificate(t, p, "node-1")
	legacy, _ := p.LegacyMemberCertificate("127.0.0.1")
	r := &rolling{stores: make([]*dqlite.Store, 3)}
	for i := range 3 {
		r.dirs, r.addrs = append(r.dirs, t.TempDir()), append(r.addrs, freeport.Addr(t))
		r.start(t, i, earlierReleaseTLS(t, p))
	}
	t.Cleanup(func() {
		for _, st := range r.stores {
			st.Close()
		}
	})
	r.write(t, 0, "before the upgrade")
	for _, legacyMode := range []bool{true, false} {
		for i := range 3 {
			step := fmt.Sprintf("member %d to transition %v", i, legacyMode)
			if err := r.stores[i].Close(); err != nil {
				t.Fatalf("%s: stop: %v", step, err)
			}
			r.write(t, (i+1)%3, step+", member down")
			_, tls, err := memberTLS(p, "127.0.0.1", legacyMode)
			if err != nil {
				t.Fatal(err)
			}
			r.start(t, i, tls)
			r.write(t, i, step+", member back")
			if err := dialMember(r.addrs[i], &agent); err == nil {
				t.Fatalf("%s: the member port accepted an agent certificate", step)
			}
		}
	}
	for i, addr := range r.addrs {
		if err := dialMember(addr, &legacy); err == nil {
			t.Errorf("member %d accepts an agent-CA member certificate after the upgrade", i)
		}
	}
	r.write(t, 2, "after the upgrade")
}
