//go:build dqlite

package dqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// TestFrozenWriterDoesNotBlockTheCluster: a member begins a write
// transaction on the leader and then stops answering without closing its
// connection (SIGSTOP, a paused VM): the leader keeps its write lock and
// every other write meets "database is locked". The others' writes must
// still succeed within the store's timeout.
func TestFrozenWriterDoesNotBlockTheCluster(t *testing.T) {
	c := startCluster(t, 3, nil)
	l := c.leader(t, 0)
	frozen, writer := (l+1)%3, (l+2)%3
	s := c.open(t, writer, dqlite.Options{Timeout: 20 * time.Second})
	createSite(t, s, "before")

	ctx := context.Background()
	raw, err := c.nodes[frozen].RawDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := raw.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE sites SET name = name WHERE id = 'before'"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = s.CreateSite(ctx, testSite("during"), lifecycle.DefaultSitePolicy("during"))
	t.Logf("write while another member holds an open transaction: %v after %s", err, time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("write while a frozen member holds the write lock: %v", err)
	}
	// The stalled member wakes: its transaction is gone, nothing of it
	// is committed.
	if err := tx.Commit(); err == nil {
		t.Fatal("the stalled transaction committed after its lock was dropped")
	}
	got, err := s.GetSite(ctx, "before")
	if err != nil || got.Name != "maas-before" {
		t.Fatalf("site before: %+v, %v", got, err)
	}
}
