package feed_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// Each source alone catches an out-of-band release: the webhook fast; the
// events cursor when the emitter drops every hint; the resync when both
// are cut.
func TestEverySourceCatchesAnOutOfBandRelease(t *testing.T) {
	cases := []struct {
		name   string
		o      opts
		within time.Duration
		source string
	}{
		{"webhook", opts{webhooks: true, poll: time.Hour, resync: time.Hour}, time.Second, "webhook"},
		{"events cursor, emitter drops every hint",
			opts{webhooks: true, faults: maassim.WebhookFaults{Drop: 1}, poll: 50 * time.Millisecond, resync: time.Hour}, 3 * time.Second, "events"},
		{"resync, webhooks and cursor cut", opts{poll: time.Hour, resync: 200 * time.Millisecond}, 3 * time.Second, "resync"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSite(t, c.o)
			id, sid := s.activeNode("gpu-a1")
			s.eventually(2*time.Second, "events cursor initialised", func() bool {
				cur, err := s.store.GetFeedCursor(context.Background(), siteID)
				return err == nil && !cur.UpdatedAt.IsZero() || c.source == "resync"
			})
			start := time.Now()
			must(t, s.sim.ReleaseOutOfBand(context.Background(), sid))
			s.waitState(id, lifecycle.NodeQuarantined, c.within)
			t.Logf("quarantined %s after the release", time.Since(start).Round(time.Millisecond))
			if st := s.state(id); st.DriftRule != lifecycle.DriftReleased {
				t.Fatalf("drift %+v", st.Drift)
			}
			for _, src := range []string{"webhook", "events"} {
				got := s.metric("maas_sidecar_feed_machines_read_total", "source", src)
				if (src == c.source) != (got > 0) {
					t.Fatalf("machines read through %s = %v; only %s should have seen it", src, got, c.source)
				}
			}
		})
	}
}

// Duplicated and reordered webhooks change nothing twice: each node is
// quarantined once, one drift per node, duplicates refused and counted.
func TestDuplicatedAndReorderedWebhooksActOnce(t *testing.T) {
	s := newSite(t, opts{webhooks: true, faults: maassim.WebhookFaults{Duplicate: 1, Reorder: 0.5}, poll: time.Hour, resync: time.Hour})
	ctx := context.Background()
	var ids, sids []string
	for i := range 4 {
		id, sid := s.activeNode(fmt.Sprintf("gpu-a%d", i))
		ids, sids = append(ids, id), append(sids, sid)
	}
	must(t, s.sim.ReleaseOutOfBand(ctx, sids[0]))
	must(t, s.sim.MarkBrokenOutOfBand(ctx, sids[1], "fan"))
	must(t, s.sim.DeleteOutOfBand(ctx, sids[2]))
	must(t, s.sim.ChangeIPOutOfBand(ctx, sids[3]))
	for _, id := range ids[:3] {
		s.waitState(id, lifecycle.NodeQuarantined, 3*time.Second)
	}
	s.eventually(3*time.Second, "duplicates refused", func() bool { return s.metric("maas_sidecar_webhook_duplicates_total") > 0 })
	time.Sleep(200 * time.Millisecond)
	for _, id := range ids[:3] {
		if a := s.audits(id); join(a) != "reconcile.quarantine" {
			t.Fatalf("node %s audit %v, want one quarantine", id, a)
		}
	}
	total := 0.0
	for _, r := range lifecycle.DriftRules {
		total += s.metric("maas_sidecar_drift_detected_total", "rule", string(r))
	}
	if total != 4 { // three quarantines and an IP change
		t.Fatalf("drifts opened %v, want 4 (one per change)", total)
	}
	pend, err := s.store.PendingWebhooks(ctx, 0)
	must(t, err)
	if len(pend) != 0 {
		t.Fatalf("%d webhooks left unprocessed", len(pend))
	}
}
