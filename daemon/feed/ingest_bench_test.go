package feed_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
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
// the same concurrency), with the ratios, and the loopback HTTP itself:
// the same POSTs to an empty handler. Every 202'd event is then checked
// to be in the inbox. Last, the same senders POST batches of 50 hints (as
// maas-notify-forward does): batched_events/s and the p99 of a batch's
// 202.
func BenchmarkWebhookIngest(b *testing.B) {
	s := newSite(b, opts{poll: time.Hour, resync: time.Hour})
	dir := b.TempDir()
	fsyncs := fsyncRate(b, dir, time.Second)
	boltRate := boltBatchRate(b, dir, ingestSenders, max(b.N, 2000))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: ingestSenders}}
	url := s.adminURL + admin.WebhookPath + "?site_id=" + siteID
	b.ResetTimer()
	elapsed, lat := drive(b, b.N, func(i int) (time.Duration, error) {
		return postHint(client, url, hintBody(fmt.Sprintf("bench-%d", i)))
	})
	b.StopTimer()
	all := accepted(b, s, lat)
	rate := float64(len(all)) / elapsed.Seconds()
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(p99(all), "p99_ack_ms")
	b.ReportMetric(fsyncs, "fsync/s")
	b.ReportMetric(boltRate, "bbolt_batch_puts/s")
	b.ReportMetric(rate/fsyncs, "ratio_events_per_fsync")
	b.ReportMetric(rate/boltRate, "ratio_vs_bbolt_batch")
	b.ReportMetric(float64(len(all))/s.metric("maas_sidecar_webhook_commit_batch_size"), "events/commit")
	empty, emptyP99 := emptyHandlerRate(b, client, b.N)
	b.ReportMetric(empty, "empty_handler_req/s")
	b.ReportMetric(emptyP99, "empty_handler_p99_ms")
	b.ReportMetric(rate/empty, "ratio_vs_empty_handler")
	batched, batchedP99 := batchedRate(b, client, url, max(b.N, ingestBatch*ingestSenders))
	b.ReportMetric(batched, "batched_events/s")
	b.ReportMetric(batchedP99, "batched_p99_ack_ms")
}

// ingestBatch is how many hints each POST carries in the batched measure
// (maas-notify-forward's default --max-batch).
const ingestBatch = 50

// drive runs post(i) for i in 1..n from ingestSenders concurrent senders
// and returns the time it took and each sender's latencies.
func drive(b *testing.B, n int, post func(i int) (time.Duration, error)) (time.Duration, [][]time.Duration) {
	var next atomic.Int64
	lat := make([][]time.Duration, ingestSenders)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range ingestSenders {
		wg.Go(func() {
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				d, err := post(int(i))
				if err != nil {
					b.Error(err)
					return
				}
				lat[w] = append(lat[w], d)
			}
		})
	}
	wg.Wait()
	return time.Since(start), lat
}

// emptyHandlerRate is the same-run baseline of the loopback HTTP itself:
// the same senders POST the same signed bodies, n in all, to a handler
// that reads the body and answers 202; requests per second and p99 ms.
func emptyHandlerRate(b *testing.B, client *http.Client, n int) (float64, float64) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	elapsed, lat := drive(b, n, func(i int) (time.Duration, error) {
		return postHint(client, srv.URL+admin.WebhookPath, hintBody(fmt.Sprintf("empty-%d", i)))
	})
	all := slices.Concat(lat...)
	slices.Sort(all)
	return float64(len(all)) / elapsed.Seconds(), p99(all)
}

// batchedRate is ingest as maas-notify-forward sends it under load: the
// same senders POST batches of ingestBatch hints, n events in all, to the
// same daemon; events per second and the p99 ms of a batch's 202.
func batchedRate(b *testing.B, client *http.Client, url string, n int) (float64, float64) {
	posts := n / ingestBatch
	elapsed, lat := drive(b, posts, func(i int) (time.Duration, error) {
		ids := make([]string, ingestBatch)
		for k := range ids {
			ids[k] = fmt.Sprintf("batched-%d-%d", i, k)
		}
		return postHint(client, url, batchBody(ids...))
	})
	all := slices.Concat(lat...)
	if len(all) != posts {
		b.Fatalf("%d of %d batches accepted", len(all), posts)
	}
	slices.Sort(all)
	return float64(posts*ingestBatch) / elapsed.Seconds(), p99(all)
}

func p99(sorted []time.Duration) float64 {
	return float64(sorted[len(sorted)*99/100].Microseconds()) / 1000
}

// postHint sends body signed and returns the time to its 202.
func postHint(client *http.Client, url string, body []byte) (time.Duration, error) {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set(feed.SignatureHeader, feed.Sign([]byte(hookSecret), time.Now().Unix(), body))
	t0 := time.Now()
	resp, err := client.Do(req)
	d := time.Since(t0)
	if err != nil {
		return 0, fmt.Errorf("webhook: %w", err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return 0, fmt.Errorf("webhook: %d %s", resp.StatusCode, msg)
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
