package feed_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ingestSenders is the benchmark's concurrency: 32 senders, whatever
// GOMAXPROCS is.
const ingestSenders = 32

// BenchmarkWebhookIngest posts signed webhooks from 32 concurrent senders
// through the admin API into the durable inbox (bbolt with fsync, group
// commit) and reports events/s and the p99 time to the 202. Beside them,
// measured in the same run on the same disk: the raw fsync rate (write and
// fsync of a small file) and bbolt's own batched-write rate (db.Batch at
// the same concurrency), with the ratios. Every 202'd event is then
// checked to be in the inbox.
func BenchmarkWebhookIngest(b *testing.B) {
	s := newSite(b, opts{poll: time.Hour, resync: time.Hour})
	dir := b.TempDir()
	fsyncs := fsyncRate(b, dir, time.Second)
	boltRate := boltBatchRate(b, dir, ingestSenders, max(b.N, 2000))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: ingestSenders}}
	url := s.adminURL + admin.WebhookPath + "?site_id=" + siteID
	var next atomic.Int64
	lat := make([][]time.Duration, ingestSenders)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range ingestSenders {
		wg.Go(func() {
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				d, err := postHint(client, url, fmt.Sprintf("bench-%d", i))
				if err != nil {
					b.Error(err)
					return
				}
				lat[w] = append(lat[w], d)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	all := accepted(b, s, lat)
	rate := float64(len(all)) / elapsed.Seconds()
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99_ack_ms")
	b.ReportMetric(fsyncs, "fsync/s")
	b.ReportMetric(boltRate, "bbolt_batch_puts/s")
	b.ReportMetric(rate/fsyncs, "ratio_events_per_fsync")
	b.ReportMetric(rate/boltRate, "ratio_vs_bbolt_batch")
	b.ReportMetric(float64(len(all))/s.metric("maas_sidecar_webhook_commit_batch_size"), "events/commit")
}

// postHint sends one signed hint and returns the time to its 202.
func postHint(client *http.Client, url, id string) (time.Duration, error) {
	body := hintBody(id)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set(feed.SignatureHeader, feed.Sign([]byte(hookSecret), time.Now().Unix(), body))
	t0 := time.Now()
	resp, err := client.Do(req)
	d := time.Since(t0)
	if err != nil {
		return 0, fmt.Errorf("webhook %s: %w", id, err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return 0, fmt.Errorf("webhook %s: %d %s", id, resp.StatusCode, msg)
	}
	return d, nil
}

// accepted checks that all b.N webhooks were answered 202 and are in the
// inbox (storing them again finds each a duplicate), and returns their
// latencies sorted.
func accepted(b *testing.B, s *site, lat [][]time.Duration) []time.Duration {
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	if len(all) != b.N {
		b.Fatalf("%d of %d webhooks accepted", len(all), b.N)
	}
	evs := make([]lifecycle.WebhookEvent, b.N)
	for i := range evs {
		evs[i] = lifecycle.WebhookEvent{SiteID: siteID, ID: fmt.Sprintf("bench-%d", i+1), SystemID: "abc123"}
	}
	dup, err := s.store.IngestWebhooks(context.Background(), evs)
	must(b, err)
	for i, d := range dup {
		if !d {
			b.Fatalf("webhook %s was answered 202 but is not in the inbox", evs[i].ID)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	return all
}
