package feed

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// countingSecrets has a secret for site-1 only and counts every read.
type countingSecrets struct{ reads atomic.Int32 }

func (c *countingSecrets) WebhookSecret(_ context.Context, site string) ([]byte, error) {
	c.reads.Add(1)
	if site != "site-1" {
		return nil, lifecycle.Errorf(lifecycle.CodeNotFound, "secrets", "no secret")
	}
	return []byte("the-real-secret-123"), nil
}

// TestBadWebhooksCostBoundedVaultReads sends 1,000 badly signed webhooks
// for a known site and 1,000 for an unknown one over 10 seconds: Vault is
// read a handful of times, not once per request and never for the
// unknown site, every rejection is counted, and each site is logged once.
func TestBadWebhooksCostBoundedVaultReads(t *testing.T) {
	src := &countingSecrets{}
	clk := clockwork.NewFakeClockAt(time.Unix(1_800_000_000, 0))
	var logs bytes.Buffer
	f := New(Config{Store: siteStore(t, clk, "site-1"), Secrets: src, Clock: clk, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx := context.Background()
	body := []byte(`{"id":"e1","type":"x","system_id":"abc123"}`)
	for i := range 1000 {
		clk.Advance(10 * time.Millisecond)
		sig := Sign([]byte("a-wrong-secret-000"), clk.Now().Unix(), body)
		if err := f.Receive(ctx, "site-1", sig, body); lifecycle.ErrorCode(err) != lifecycle.CodeUnauthorized {
			t.Fatalf("bad webhook %d: %v, want unauthorized", i, err)
		}
		if err := f.Receive(ctx, "site-2", sig, body); lifecycle.ErrorCode(err) != lifecycle.CodeUnauthorized {
			t.Fatalf("unknown-site webhook %d: %v, want unauthorized", i, err)
		}
	}
	// 10s of bad signatures: the first read, then at most one forced
	// re-read per 5s for site-1; none for the unknown site-2.
	if n := src.reads.Load(); n > 3 {
		t.Fatalf("2,000 bad webhooks read Vault %d times, want at most 3", n)
	}
	if n := strings.Count(logs.String(), "webhook rejected"); n != 2 {
		t.Errorf("logged %d rejections, want one per site (2):\n%s", n, logs.String())
	}
	good := Sign([]byte("the-real-secret-123"), clk.Now().Unix(), body)
	if _, err := f.verify(ctx, "site-1", mustParse(t, good), body); err != nil {
		t.Errorf("a good signature after the flood: %v", err)
	}
}

// TestRotatedSecretStillWorks: a secret rotated in Vault is picked up by
// the forced re-read once the refresh interval allows it.
func TestRotatedSecretStillWorks(t *testing.T) {
	src := &rotating{secret: "old-secret-0123456"}
	clk := clockwork.NewFakeClockAt(time.Unix(1_800_000_000, 0))
	f := New(Config{Secrets: src, Clock: clk})
	body := []byte(`{}`)
	if _, err := f.verify(context.Background(), "s", mustParse(t, Sign([]byte("old-secret-0123456"), clk.Now().Unix(), body)), body); err != nil {
		t.Fatal(err)
	}
	src.secret = "new-secret-0123456"
	clk.Advance(6 * time.Second)
	if _, err := f.verify(context.Background(), "s", mustParse(t, Sign([]byte("new-secret-0123456"), clk.Now().Unix(), body)), body); err != nil {
		t.Fatalf("the rotated secret was refused: %v", err)
	}
}

type rotating struct{ secret string }

func (r *rotating) WebhookSecret(context.Context, string) ([]byte, error) {
	return []byte(r.secret), nil
}

func mustParse(t *testing.T, h string) signature {
	t.Helper()
	s, ok := parseSignature(h)
	if !ok {
		t.Fatalf("cannot parse %q", h)
	}
	return s
}
