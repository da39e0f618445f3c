package feed_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// flakyMachineMAAS names machine abc123 in its first event and fails to
// read it.
type flakyMachineMAAS struct{}

func (m flakyMachineMAAS) Connect(context.Context, lifecycle.Site) (feed.MAAS, error) { return m, nil }
func (flakyMachineMAAS) Machine(context.Context, string) (lifecycle.Machine, error) {
	return lifecycle.Machine{}, lifecycle.Errorf(lifecycle.CodeUnavailable, "maas: machine abc123", "gateway timeout")
}
func (flakyMachineMAAS) Machines(context.Context, lifecycle.MachineFilter) ([]lifecycle.Machine, error) {
	return nil, nil
}
func (flakyMachineMAAS) NewestEventID(context.Context) (int64, error) { return 0, nil }
func (flakyMachineMAAS) EventsAfter(_ context.Context, after int64, _ int) ([]lifecycle.MaasEvent, error) {
	if after > 0 {
		return nil, nil
	}
	return []lifecycle.MaasEvent{{ID: 1, SystemID: "abc123", Type: "Node changed status"}}, nil
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) records(t *testing.T) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		if line == "" {
			continue
		}
		var r map[string]any
		must(t, json.Unmarshal([]byte(line), &r))
		out = append(out, r)
	}
	return out
}

// A machine that cannot be read is logged once, at the top of the events
// loop, under its MAAS system id (not the node key, which names our nodes).
func TestAnUnreadMachineIsLoggedOnceUnderSystemID(t *testing.T) {
	fc := clockwork.NewFakeClockAt(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Now: fc.Now})
	must(t, err)
	must(t, st.CreateSite(context.Background(), lifecycle.Site{ID: siteID, Name: "dc1", RegionCode: "dc1",
		APIBaseURL: "http://10.0.0.1:5240/MAAS/", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(),
		lifecycle.DefaultSitePolicy(siteID)))
	logs := &syncBuffer{}
	f := feed.New(feed.Config{Store: st, Connector: flakyMachineMAAS{}, Clock: fc,
		Reconciler: reconcile.New(reconcile.Config{Store: st, Clock: fc}), Waker: &wakeLog{},
		Logger:       slog.New(slog.NewJSONHandler(logs, nil)),
		PollInterval: 10 * time.Second, ResyncInterval: time.Hour, SitesInterval: time.Hour, Debounce: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = f.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; st.Close() })

	settle(t, "the events cursor", func() bool {
		cur, err := st.GetFeedCursor(context.Background(), siteID)
		return err == nil && !cur.UpdatedAt.IsZero()
	})
	sleepers(t, fc, 4)
	fc.Advance(10 * time.Second) // the next poll reads event 1 and fails to read abc123
	settle(t, "a warning", func() bool { return len(logs.records(t)) > 0 })
	sleepers(t, fc, 4)
	time.Sleep(20 * time.Millisecond)
	recs := logs.records(t)
	if len(recs) != 1 {
		t.Fatalf("%d log records for one unread machine, want 1:\n%v", len(recs), recs)
	}
	r := recs[0]
	if r["system_id"] != "abc123" || r["site"] != siteID || r["source"] != "events" || r["node"] != nil ||
		!strings.Contains(r["err"].(string), "gateway timeout") {
		t.Errorf("log record %v, want system_id abc123, site, source events and the error", r)
	}
}
