package feed

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// listCounter is a real bbolt store that counts its site-list reads.
type listCounter struct {
	*bolt.Store
	lists atomic.Int32
}

func (c *listCounter) ListSites(ctx context.Context) ([]lifecycle.Site, error) {
	c.lists.Add(1)
	return c.Store.ListSites(ctx)
}

// siteStore opens a bbolt store holding the sites ids.
func siteStore(t *testing.T, clk clockwork.Clock, ids ...string) *listCounter {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, id := range ids {
		site := lifecycle.Site{ID: id, Name: id, RegionCode: "dc1", APIBaseURL: "http://127.0.0.1:1/MAAS/",
			PXEIface: "ens19", NodePXEIface: "eno1"}.WithDefaults()
		if err := st.CreateSite(context.Background(), site, lifecycle.DefaultSitePolicy(id)); err != nil {
			t.Fatal(err)
		}
	}
	return &listCounter{Store: st}
}

// TestUnknownSitesCostNoVaultRead sends 10,000 signed webhooks for
// 10,000 made-up site ids over 100 seconds: each is refused as
// unknown_site from the store's site list, Vault is never read, one line
// is logged per minute, the site list is read at most once per 5 s, and
// the secret cache and the site set do not grow.
func TestUnknownSitesCostNoVaultRead(t *testing.T) {
	src := &countingSecrets{}
	clk := clockwork.NewFakeClockAt(time.Unix(1_800_000_000, 0))
	st := siteStore(t, clk, "site-1")
	var logs bytes.Buffer
	f := New(Config{Store: st, Secrets: src, Clock: clk, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx := context.Background()
	body := []byte(`{"id":"e1","type":"x","system_id":"abc123"}`)
	for i := range 10_000 {
		if i%1000 == 0 && i > 0 {
			clk.Advance(10 * time.Second)
		}
		sig := Sign([]byte("the-real-secret-123"), clk.Now().Unix(), body)
		if err := f.Receive(ctx, fmt.Sprintf("made-up-%d", i), sig, body); lifecycle.ErrorCode(err) != lifecycle.CodeUnauthorized {
			t.Fatalf("webhook %d for an unknown site: %v, want unauthorized", i, err)
		}
	}
	if n := src.reads.Load(); n != 0 {
		t.Errorf("10,000 webhooks for unknown sites read Vault %d times, want 0", n)
	}
	// 90 s of fake time: one line at the start, one after each minute.
	if n := strings.Count(logs.String(), "webhook rejected"); n != 2 {
		t.Errorf("logged %d rejections over 90 s, want 2 (one a minute):\n%s", n, logs.String())
	}
	if n := st.lists.Load(); n > 10 {
		t.Errorf("the site list was read %d times over 90 s, want at most one per 5 s of misses (10)", n)
	}
	if n, ids := len(f.secrets.entries), len(*f.sites.ids.Load()); n != 0 || ids != 1 {
		t.Errorf("secret cache holds %d entries and the site set %d, want 0 and 1", n, ids)
	}
	sig := Sign([]byte("the-real-secret-123"), clk.Now().Unix(), body)
	if reason, err := f.receive(ctx, "site-1", sig, body); reason == ReasonUnknownSite {
		t.Fatalf("the known site was refused as unknown: %v", err)
	}
}

// TestNewSiteKnownAtOnce: a site created after the set was read (here or
// on another member) is taken once the set is older than 5 s, and a
// deleted site is refused without a Vault read.
func TestNewSiteKnownAtOnce(t *testing.T) {
	src := &countingSecrets{}
	clk := clockwork.NewFakeClockAt(time.Unix(1_800_000_000, 0))
	st := siteStore(t, clk)
	f := New(Config{Store: st, Secrets: src, Clock: clk})
	ctx := context.Background()
	if ok, err := f.liveSite(ctx, "site-1"); ok || err != nil {
		t.Fatalf("site-1 before it exists: %v %v", ok, err)
	}
	site := lifecycle.Site{ID: "site-1", Name: "s", RegionCode: "dc1", APIBaseURL: "http://127.0.0.1:1/MAAS/",
		PXEIface: "ens19", NodePXEIface: "eno1"}.WithDefaults()
	if err := st.CreateSite(ctx, site, lifecycle.DefaultSitePolicy("site-1")); err != nil {
		t.Fatal(err)
	}
	clk.Advance(siteSetMissEvery)
	if ok, err := f.liveSite(ctx, "site-1"); !ok || err != nil {
		t.Fatalf("site-1 once created: %v %v, want known", ok, err)
	}
	f.sites.set([]lifecycle.Site{{ID: "site-1", Status: lifecycle.SiteDeleted}}, clk.Now())
	if ok, _ := f.liveSite(ctx, "site-1"); ok || src.reads.Load() != 0 {
		t.Fatalf("a deleted site: known %v, %d Vault reads; want refused, none", ok, src.reads.Load())
	}
}
