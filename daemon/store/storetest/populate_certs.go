package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
)

// certificates appends a chain of two certificates of the node to its
// site's log and one of another node to site-b's, through the
// certificate ledger (a store that keeps none is left as it is).
func (p *populator) certificates(pop Population) {
	b, ok := p.st.(certledger.Backend)
	if !ok {
		return
	}
	l := certledger.Ledger{B: b}
	for i, c := range []struct{ site, node, run string }{
		{pop.SiteID, pop.NodeID, ""}, {"site-b", "node-b1", ""}, {pop.SiteID, pop.NodeID, pop.RunID},
	} {
		_, err := AppendCertificate(p.ctx, l, c.site, c.node, c.run, fmt.Sprintf("sha256:populated-%d", i))
		p.do(err)
	}
}

// AppendCertificate appends a certificate with digest to the node's
// chain and its site's log, chained from what l holds, and returns it.
// The envelope and signed head are placeholders: the ledger stores
// them, the issuer signs them.
func AppendCertificate(ctx context.Context, l certledger.Ledger, site, node, run, digest string) (cert.Record, error) {
	prev, err := l.LastDigest(ctx, node)
	if err != nil {
		return cert.Record{}, err
	}
	size, head, err := l.LogHead(ctx, site)
	if err != nil {
		return cert.Record{}, err
	}
	r := cert.Record{Site: site, NodeID: node, RunID: run, Digest: digest,
		Envelope: fmt.Appendf(nil, `{"payload":%q}`, digest),
		Entry:    cert.LogEntry{Index: size, Certificate: digest, NodeID: node, Hash: cert.EntryHash(head, size, digest, node)},
		Head:     fmt.Appendf(nil, `{"size":%d}`, size+1)}
	return r, l.Append(ctx, r, prev)
}

// certificatesGoOn checks that an imported ledger continues the node's
// chain and the site's log where the source's ended (Populate left two
// certificates in the site's log).
func certificatesGoOn(t *testing.T, e *env, pop Population) {
	t.Helper()
	b, ok := e.st.(certledger.Backend)
	if !ok {
		return
	}
	l := certledger.Ledger{B: b}
	chain, err := l.Export(e.ctx, pop.NodeID)
	e.must(err)
	if n := len(chain.Certificates); n != 2 {
		t.Fatalf("the imported node's chain holds %d certificates, want 2", n)
	}
	r, err := AppendCertificate(e.ctx, l, pop.SiteID, pop.NodeID, "", "sha256:after-import")
	e.must(err)
	if r.Entry.Index != 2 {
		t.Errorf("the next certificate after the import is entry %d of the site log, want 2", r.Entry.Index)
	}
}

// refusesUnchainedCertificates checks that an import whose certificates
// of one site come out of log order is invalid and leaves the target
// without a certificate.
func refusesUnchainedCertificates(t *testing.T, recs []lifecycle.Record, dst ExportStore, e *env) {
	t.Helper()
	var at []int
	for i, r := range recs {
		if r.Kind == lifecycle.KindCertificate && strings.HasPrefix(r.Key, "site-a/") {
			at = append(at, i)
		}
	}
	if len(at) < 2 {
		t.Fatalf("the export holds %d certificates of site-a, want 2", len(at))
	}
	swapped := append([]lifecycle.Record{}, recs...)
	swapped[at[0]], swapped[at[1]] = swapped[at[1]], swapped[at[0]]
	e.wantCode(dst.Import(e.ctx, swapped), lifecycle.CodeInvalid)
	left, err := Export(e.ctx, dst)
	e.must(err)
	for _, r := range left {
		if r.Kind == lifecycle.KindCertificate {
			t.Fatalf("a refused import left certificate %s behind", r.Key)
		}
	}
}
