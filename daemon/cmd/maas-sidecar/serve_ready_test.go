package main

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// TestReadyOnlyOnceTheFeedRuns: /readyz's check fails until the change
// feed runs (its Run started in its own goroutine may lag READY=1), then
// passes while the store answers, and fails again when the store does not.
func TestReadyOnlyOnceTheFeedRuns(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f := feed.New(feed.Config{Store: st})
	var storeErr error
	check := readyCheck(func(context.Context) error { return storeErr }, f.Check)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := check.Check(ctx); err == nil {
		t.Fatal("ready before the feed runs")
	}
	done := make(chan struct{})
	go func() { _ = f.Run(ctx); close(done) }()
	deadline := time.Now().Add(5 * time.Second)
	for check.Check(ctx) != nil {
		if time.Now().After(deadline) {
			t.Fatalf("not ready with the feed running: %v", check.Check(ctx))
		}
		time.Sleep(5 * time.Millisecond)
	}
	storeErr = errors.New("no quorum")
	if err := check.Check(ctx); err == nil {
		t.Error("ready while the store does not answer")
	}
	cancel()
	<-done
}
