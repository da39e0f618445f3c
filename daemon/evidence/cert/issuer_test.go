package cert_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/jonboulle/clockwork"
)

// ledger keeps records in memory with the Ledger contract's checks.
type ledger struct {
	mu      sync.Mutex
	records []cert.Record
	before  func() // runs inside Append before the checks
}

func (l *ledger) LastDigest(_ context.Context, node string) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last(node), nil
}

func (l *ledger) last(node string) string {
	for i := len(l.records) - 1; i >= 0; i-- {
		if l.records[i].NodeID == node {
			return l.records[i].Digest
		}
	}
	return ""
}

func (l *ledger) LogHead(context.Context, string) (uint64, string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.records); n > 0 {
		return uint64(n), l.records[n-1].Entry.Hash, nil
	}
	return 0, "", nil
}

func (l *ledger) Append(_ context.Context, r cert.Record, prev string) error {
	if l.before != nil {
		l.before()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last(r.NodeID) != prev || r.Entry.Index != uint64(len(l.records)) {
		return cert.ErrMoved
	}
	if _, ok := l.byRun(r.RunID); ok && r.RunID != "" {
		return cert.ErrMoved
	}
	l.records = append(l.records, r)
	return nil
}

func (l *ledger) ByRun(_ context.Context, run string) (cert.Record, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.byRun(run)
	return r, ok, nil
}

func (l *ledger) byRun(run string) (cert.Record, bool) {
	for _, r := range l.records {
		if r.RunID == run {
			return r, true
		}
	}
	return cert.Record{}, false
}

func TestIssuedCertificatesChainPerNodeAndLogPerSite(t *testing.T) {
	s, l := newKey(t, 0), &ledger{}
	is := cert.Issuer{Key: s, Ledger: l, Clock: clockwork.NewFakeClockAt(t0)}
	var a [][]byte
	for i, node := range []string{"node-7", "node-9", "node-7", "node-7"} {
		c := sample("ignored", i)
		c.Node.NodeID = node
		r, err := is.Issue(context.Background(), "site-1", c)
		if err != nil {
			t.Fatal(err)
		}
		if node == "node-7" {
			a = append(a, r.Envelope)
		}
	}
	var entries []cert.LogEntry
	for _, r := range l.records {
		entries = append(entries, r.Entry)
	}
	report, err := cert.VerifyFile(context.Background(), bundle(t, a, entries, l.records[3].Head), []ed25519.PublicKey{s.Public()})
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(report, "\n"); !strings.Contains(text, "chain: 3 certificates") || !strings.Contains(text, "is entry 3 of 4") {
		t.Fatalf("report\n%s", text)
	}
}

func TestIssueRefusesWhenTheLedgerMoved(t *testing.T) {
	s, l := newKey(t, 0), &ledger{}
	is := cert.Issuer{Key: s, Ledger: l, Clock: clockwork.NewFakeClockAt(t0)}
	l.before = func() { // another issuer records first
		l.before = nil
		if _, err := is.Issue(context.Background(), "site-1", sample("", 1)); err != nil {
			t.Error(err)
		}
	}
	if _, err := is.Issue(context.Background(), "site-1", sample("", 2)); !errors.Is(err, cert.ErrMoved) {
		t.Fatalf("err %v, want ErrMoved", err)
	}
	if len(l.records) != 1 {
		t.Fatalf("%d records, want the other issuer's one", len(l.records))
	}
}

// TestIssueRunIsOncePerRunAndRetriesAMovedLedger: a second IssueRun of
// the same run answers the first certificate, and a ledger moved by
// another issuer is retried, not failed.
func TestIssueRunIsOncePerRunAndRetriesAMovedLedger(t *testing.T) {
	s, l := newKey(t, 0), &ledger{}
	is := cert.Issuer{Key: s, Ledger: l, Clock: clockwork.NewFakeClockAt(t0)}
	l.before = func() {
		l.before = nil
		if _, err := is.IssueRun(context.Background(), "site-1", "run-other", sample("", 1)); err != nil {
			t.Error(err)
		}
	}
	first, err := is.IssueRun(context.Background(), "site-1", "run-1", sample("", 2))
	if err != nil {
		t.Fatal(err)
	}
	again, err := is.IssueRun(context.Background(), "site-1", "run-1", sample("", 3))
	if err != nil {
		t.Fatal(err)
	}
	if again.Digest != first.Digest || len(l.records) != 2 || first.Entry.Index != 1 {
		t.Fatalf("first %s (entry %d), again %s, %d records", first.Digest, first.Entry.Index, again.Digest, len(l.records))
	}
}

// TestIssueRunTakesTurnsInOneProcess: runs certifying at once, each
// append as slow as a commit, all get their certificate when the issuer
// takes turns (racing, most would lose the log head past the retries).
func TestIssueRunTakesTurnsInOneProcess(t *testing.T) {
	const runs = 24
	s, l := newKey(t, 0), &ledger{}
	l.before = func() { time.Sleep(time.Millisecond) }
	is := cert.Issuer{Key: s, Ledger: l, Clock: clockwork.NewFakeClockAt(t0), Turns: new(sync.Mutex)}
	errs := make(chan error, runs)
	for i := range runs {
		go func() {
			_, err := is.IssueRun(context.Background(), "site-1", fmt.Sprintf("run-%d", i), sample("", i))
			errs <- err
		}()
	}
	for range runs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if len(l.records) != runs {
		t.Fatalf("%d records, want %d", len(l.records), runs)
	}
}
