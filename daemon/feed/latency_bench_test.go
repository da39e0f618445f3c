package feed_test

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// BenchmarkDriftLatency measures, per source, the time from an
// out-of-band release in the simulated MAAS to the node's quarantine in
// the store: the whole path (hint, debounce, machine re-read, reconciler,
// bbolt commit with fsync). Each source runs alone:
//   - webhook: the simulator's signed webhooks to the admin API;
//   - listen: the region database's notifications (a real PostgreSQL
//     mirroring the simulator, listened to through pgnotify);
//   - cursor: the events cursor polled every second (production polls
//     every poll_interval, 10 s by default: its latency scales with it).
//
// Every source runs with the production debounce (200 ms), which is most
// of the push sources' latency. Each iteration releases one fresh active
// node; p50 and p99 are reported.
func BenchmarkDriftLatency(b *testing.B) {
	sources := []struct {
		name string
		o    func(b *testing.B) opts
	}{
		{"webhook", func(*testing.B) opts { return opts{webhooks: true, poll: time.Hour, resync: time.Hour} }},
		{"listen", listenBenchOpts},
		{"cursor", func(*testing.B) opts { return opts{poll: time.Second, resync: time.Hour} }},
	}
	for _, src := range sources {
		b.Run(src.name, func(b *testing.B) {
			o := src.o(b)
			o.debounce = 200 * time.Millisecond
			s := newSite(b, o)
			s.awaitSource(src.name)
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				id, sid := s.activeNode(fmt.Sprintf("gpu-%s-%d", src.name, i))
				b.StartTimer()
				start := time.Now()
				must(b, s.sim.ReleaseOutOfBand(context.Background(), sid))
				s.waitState(id, lifecycle.NodeQuarantined, 30*time.Second)
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			reportLatency(b, lat)
		})
	}
}

// awaitSource waits until the source can see a change: the cursor
// initialised, the listener listening.
func (s *site) awaitSource(name string) {
	s.eventually(10*time.Second, name+" ready", func() bool {
		cur, err := s.store.GetFeedCursor(context.Background(), siteID)
		ok := err == nil && !cur.UpdatedAt.IsZero()
		if name == "listen" {
			ok = ok && s.metric("maas_sidecar_feed_listener_up", "site", siteID) == 1
		}
		return ok
	})
}

func reportLatency(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50_ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99_ms")
	b.ReportMetric(0, "ns/op")
}
