package feed_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"
)

// fsyncRate is the disk's raw durable-write rate under dir: rewrite a
// small file and fsync it, as often as it goes for d; per second.
func fsyncRate(b *testing.B, dir string, d time.Duration) float64 {
	f, err := os.Create(filepath.Join(dir, "fsync-baseline"))
	must(b, err)
	defer f.Close()
	rec := []byte(`{"id":"fsync-baseline","system_id":"abc123"}`)
	n, start := 0, time.Now()
	for time.Since(start) < d {
		if _, err := f.WriteAt(rec, 0); err != nil {
			b.Fatal(err)
		}
		must(b, f.Sync())
		n++
	}
	return float64(n) / time.Since(start).Seconds()
}

// boltBatchRate is bbolt's own batched-write rate on the same disk:
// senders goroutines put n small records in all through db.Batch (which
// groups concurrent calls into one fsynced transaction); puts per second.
// It checks every record was written.
func boltBatchRate(b *testing.B, dir string, senders, n int) float64 {
	db, err := bbolt.Open(filepath.Join(dir, "batch-baseline.db"), 0o600, nil)
	must(b, err)
	defer db.Close()
	bucket := []byte("inbox")
	must(b, db.Update(func(tx *bbolt.Tx) error { _, err := tx.CreateBucket(bucket); return err }))
	val := make([]byte, 300) // about a stored webhook event
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range senders {
		wg.Go(func() {
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				k := binary.BigEndian.AppendUint64(nil, uint64(i))
				if err := db.Batch(func(tx *bbolt.Tx) error { return tx.Bucket(bucket).Put(k, val) }); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	rate := float64(n) / time.Since(start).Seconds()
	must(b, db.View(func(tx *bbolt.Tx) error {
		if got := tx.Bucket(bucket).Stats().KeyN; got != n {
			b.Fatalf("bbolt baseline: %d of %d records written", got, n)
		}
		return nil
	}))
	return rate
}
