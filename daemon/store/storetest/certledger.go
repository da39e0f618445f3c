package storetest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
)

// RunCertLedger runs the certificate ledger's suite (certledger over the
// backend's records) against the backend built by nh, whose stores must
// implement certledger.Backend.
func RunCertLedger(t *testing.T, nh NewHarness) {
	runGroups(t, nh, []group{
		{"CertChainAndLog", testCertChainAndLog},
		{"CertCompareAndSet", testCertCompareAndSet},
		{"CertOncePerRun", testCertOncePerRun},
		{"CertConcurrentIssuers", testCertConcurrent},
		{"CertReopen", testCertReopen},
	})
}

func (e *env) issuer() (*cert.Issuer, certledger.Ledger) {
	e.t.Helper()
	b, ok := e.st.(certledger.Backend)
	if !ok {
		e.t.Fatalf("%T does not implement certledger.Backend", e.st)
	}
	_, key, err := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	e.must(err)
	l := certledger.Ledger{B: b}
	return &cert.Issuer{Key: cert.Signer{Key: key}, Ledger: l, Clock: e.clock}, l
}

func certOf(node, mode string) cert.Certificate {
	return cert.Certificate{Node: cert.Node{NodeID: node, MAASSystemID: "sys-" + node},
		Predicate: cert.Predicate{EvidenceDigest: cert.Digest([]byte(mode)), Mode: mode, RequestedBy: "ops"}}
}

// verifyExport exports node's chain and verifies it offline; it returns
// the report.
func (e *env) verifyExport(l certledger.Ledger, is *cert.Issuer, node string) string {
	e.t.Helper()
	b, err := l.Export(e.ctx, node)
	e.must(err)
	raw, err := json.Marshal(b)
	e.must(err)
	report, err := cert.VerifyFile(e.ctx, raw, []ed25519.PublicKey{is.Key.(cert.Signer).Public()})
	if err != nil {
		e.t.Fatalf("export of %s does not verify: %v", node, err)
	}
	return strings.Join(report, "\n")
}

// testCertChainAndLog: certificates of two nodes chain per node and log
// per site, and each node's export verifies with the public key alone.
func testCertChainAndLog(t *testing.T, e *env) {
	is, l := e.issuer()
	for i, node := range []string{"n1", "n2", "n1", "n1"} {
		if _, err := is.IssueRun(e.ctx, "site-a", "run-"+string(rune('a'+i)), certOf(node, "soft_reset")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := is.Issue(e.ctx, "site-b", certOf("n3", "reimage")); err != nil {
		t.Fatal(err)
	}
	if r := e.verifyExport(l, is, "n1"); !strings.Contains(r, "chain: 3 certificates") || !strings.Contains(r, "is entry 3 of 4") {
		t.Fatalf("n1 report:\n%s", r)
	}
	if r := e.verifyExport(l, is, "n3"); !strings.Contains(r, "is entry 0 of 1") {
		t.Fatalf("n3 report (its own site's log):\n%s", r)
	}
	size, _, err := l.LogHead(e.ctx, "site-a")
	if err != nil || size != 4 {
		t.Fatalf("site-a head size %d, %v", size, err)
	}
	if _, err := l.Export(e.ctx, "none"); err == nil {
		t.Fatal("export of a node without certificates succeeded")
	}
}

// testCertCompareAndSet: a record built on a stale previous certificate
// or a stale log head is refused with cert.ErrMoved and stores nothing.
func testCertCompareAndSet(t *testing.T, e *env) {
	is, l := e.issuer()
	first, err := is.Issue(e.ctx, "site-a", certOf("n1", "reimage"))
	e.must(err)
	if _, err := is.Issue(e.ctx, "site-a", certOf("n2", "reimage")); err != nil {
		t.Fatal(err)
	}
	stale := first // same index, prev "" again: both checks fail
	stale.Digest, stale.Entry.Certificate = "sha256:00", "sha256:00"
	if err := l.Append(e.ctx, stale, ""); !errors.Is(err, cert.ErrMoved) {
		t.Fatalf("stale append: %v, want ErrMoved", err)
	}
	size, hash, _ := l.LogHead(e.ctx, "site-a")
	next := stale
	next.Entry = cert.LogEntry{Index: size, Certificate: next.Digest, NodeID: "n1", Hash: cert.EntryHash(hash, size, next.Digest, "n1")}
	if err := l.Append(e.ctx, next, ""); !errors.Is(err, cert.ErrMoved) { // n1's last is first, not ""
		t.Fatalf("stale previous: %v, want ErrMoved", err)
	}
	next.Entry.Hash = "sha256:forged"
	if err := l.Append(e.ctx, next, first.Digest); !errors.Is(err, cert.ErrMoved) {
		t.Fatalf("entry not chained from the head: %v, want ErrMoved", err)
	}
	if last, _ := l.LastDigest(e.ctx, "n1"); last != first.Digest {
		t.Fatalf("n1 last %s, want %s", last, first.Digest)
	}
	if err := l.Append(e.ctx, cert.Record{Site: "site-a"}, ""); err == nil {
		t.Fatal("an empty record was stored")
	}
}

// testCertOncePerRun: the same run issued twice answers its first
// certificate; a second record for the run is refused.
func testCertOncePerRun(t *testing.T, e *env) {
	is, l := e.issuer()
	a, err := is.IssueRun(e.ctx, "site-a", "run-1", certOf("n1", "soft_reset"))
	e.must(err)
	b, err := is.IssueRun(e.ctx, "site-a", "run-1", certOf("n1", "reimage"))
	e.must(err)
	got, ok, err := l.ByRun(e.ctx, "run-1")
	e.must(err)
	if b.Digest != a.Digest || !ok || got.Digest != a.Digest || !bytes.Equal(got.Envelope, a.Envelope) {
		t.Fatalf("second issue %s, stored %s (ok %v), want %s", b.Digest, got.Digest, ok, a.Digest)
	}
	if size, _, _ := l.LogHead(e.ctx, "site-a"); size != 1 {
		t.Fatalf("log size %d after a repeated run, want 1", size)
	}
}

// testCertConcurrent: issuers racing on one site leave one linear log
// that verifies, every certificate in it.
func testCertConcurrent(t *testing.T, e *env) {
	is, l := e.issuer()
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := []string{"n1", "n2", "n3"}[i%3]
			_, err := is.IssueRun(context.Background(), "site-a", "run-"+string(rune('a'+i)), certOf(node, "storage_only"))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"n1", "n2", "n3"} {
		if r := e.verifyExport(l, is, n); !strings.Contains(r, "chain: 2 certificates") || !strings.Contains(r, "of 6") {
			t.Fatalf("%s report:\n%s", n, r)
		}
	}
}

// testCertReopen: the ledger survives a close and reopen.
func testCertReopen(t *testing.T, e *env) {
	is, _ := e.issuer()
	r, err := is.IssueRun(e.ctx, "site-a", "run-1", certOf("n1", "full_decommission"))
	e.must(err)
	e.must(e.st.Close())
	e.st = e.h.Open(t)
	t.Cleanup(func() { e.st.Close() })
	is2, l := e.issuer()
	got, ok, err := l.ByRun(e.ctx, "run-1")
	if err != nil || !ok || got.Digest != r.Digest {
		t.Fatalf("after reopen: %s ok=%v %v", got.Digest, ok, err)
	}
	if _, err := is2.IssueRun(e.ctx, "site-a", "run-2", certOf("n1", "reimage")); err != nil {
		t.Fatal(err)
	}
	e.verifyExport(l, is2, "n1")
}
