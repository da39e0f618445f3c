//go:build dqlite

package dqlite_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

func TestSchemaNewStoreIsLatest(t *testing.T) {
	s := mustOpen(t, t.TempDir(), freeport.Addr(t), storetest.NewClock())
	got, err := s.SchemaStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := lifecycle.SchemaStatus{Version: dqlite.Latest(), Latest: dqlite.Latest(), Pending: []lifecycle.Migration{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("schema status (-want +got):\n%s", diff)
	}
}

// A store at version 1 (before migrations 2 to 6) is migrated on open
// and its version-1 records survive; migration 6 fills the run columns
// of the runs it finds, so a page of them is read in SQL.
func TestSchemaMigratesOlderStore(t *testing.T) {
	ctx, dir, addr, clock := context.Background(), t.TempDir(), freeport.Addr(t), storetest.NewClock()
	s := mustOpen(t, dir, addr, clock)
	site := lifecycle.Site{ID: "site-1", Name: "maas-1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	if err := s.CreateSite(ctx, site, lifecycle.DefaultSitePolicy(site.ID)); err != nil {
		t.Fatal(err)
	}
	var runs []string
	for i := range 3 {
		id := fmt.Sprintf("run-%d", 2-i) // request order is not id order
		runs = append(runs, id)
		if err := s.CreateRun(ctx, lifecycle.Run{ID: id, Kind: lifecycle.RunDecommission, SiteID: site.ID, NodeID: "n1",
			Status: lifecycle.JobPending}); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Millisecond)
	}
	for _, q := range append([]string{`DROP TABLE power_overrides`, `DROP TABLE node_maas_state`, `DROP TABLE feed_cursors`,
		`DROP TABLE roce_assignments`, `DROP TABLE batches`, `DROP TABLE submissions`, `DROP TABLE webhook_inbox`,
		`DROP TABLE outbox`, `DROP INDEX nodes_site_status`, `DROP INDEX nodes_status`}, append(undoRunColumns,
		`UPDATE schema_version SET version = 1`)...) {
		if _, err := s.DB().ExecContext(ctx, q); err != nil {
			t.Fatal(q, err)
		}
	}
	s.Close()

	s = mustOpen(t, dir, addr, clock)
	st, err := s.SchemaStatus(ctx)
	if err != nil || st.Version != dqlite.Latest() {
		t.Fatalf("after reopen: %+v, %v; want version %d", st, err, dqlite.Latest())
	}
	if err := s.SetFeedCursor(ctx, lifecycle.FeedCursor{SiteID: site.ID, EventID: 7}); err != nil {
		t.Fatalf("migration 2's table: %v", err)
	}
	if _, err := s.AppendEvent(ctx, lifecycle.OutboxEvent{ID: "e1", Type: lifecycle.EventDecommissionStarted}); err != nil {
		t.Fatalf("migration 4's table: %v", err)
	}
	if _, err := s.GetSite(ctx, site.ID); err != nil {
		t.Fatalf("version-1 record lost: %v", err)
	}
	var got []string
	for after := ""; ; {
		page, err := s.ListRuns(ctx, lifecycle.RunFilter{Kind: lifecycle.RunDecommission, NodeID: "n1",
			Statuses: []lifecycle.JobState{lifecycle.JobPending}, After: after, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page {
			got = append(got, r.ID)
		}
		if len(page) < 2 {
			break
		}
		after = page[1].ID
	}
	if !slices.Equal(got, runs) {
		t.Fatalf("pages of the migrated runs: %v, want %v in request order", got, runs)
	}
}

// undoRunColumns takes a store back to before migration 6.
var undoRunColumns = []string{`DROP INDEX runs_order`, `DROP INDEX runs_site_order`, `DROP INDEX runs_node_order`,
	`DROP INDEX runs_batch_order`, `DROP INDEX runs_status_order`, `DROP INDEX runs_kind_order`,
	`ALTER TABLE runs DROP COLUMN kind`, `ALTER TABLE runs DROP COLUMN status`, `ALTER TABLE runs DROP COLUMN node_id`,
	`ALTER TABLE runs DROP COLUMN batch_id`, `ALTER TABLE runs DROP COLUMN requested_at`}

// A store written by a newer release is refused with conflict and left
// at its version.
func TestSchemaRefusesNewerStore(t *testing.T) {
	ctx, dir, addr, clock := context.Background(), t.TempDir(), freeport.Addr(t), storetest.NewClock()
	s := mustOpen(t, dir, addr, clock)
	if _, err := s.DB().ExecContext(ctx, `UPDATE schema_version SET version = ?`, dqlite.Latest()+1); err != nil {
		t.Fatal(err)
	}
	s.Close()

	for range 2 { // the second open proves the first left the version as it was
		_, err := dqlite.Open(ctx, dir, dqlite.Options{Address: addr, Now: clock.Now})
		want := fmt.Sprintf("schema version %d but this binary knows versions up to %d", dqlite.Latest()+1, dqlite.Latest())
		if lifecycle.ErrorCode(err) != lifecycle.CodeConflict || !strings.Contains(err.Error(), want) {
			t.Fatalf("open of a newer store: %v, want conflict saying %q", err, want)
		}
	}
}

// Once another member's newer release migrated the store, this member's
// writes are refused, naming both versions, and its reads still answer.
func TestSchemaNewerStoreRefusesWrites(t *testing.T) {
	ctx, clock := context.Background(), storetest.NewClock()
	s := mustOpen(t, t.TempDir(), freeport.Addr(t), clock)
	site := lifecycle.Site{ID: "site-1", Name: "maas-1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	if err := s.CreateSite(ctx, site, lifecycle.DefaultSitePolicy(site.ID)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE schema_version SET version = ?`, dqlite.Latest()+1); err != nil {
		t.Fatal(err)
	}
	err := s.CreateRun(ctx, lifecycle.Run{ID: "run-1", Kind: lifecycle.RunDecommission, SiteID: site.ID, NodeID: "n1",
		Status: lifecycle.JobPending})
	want := fmt.Sprintf("schema version %d but this binary knows versions up to %d", dqlite.Latest()+1, dqlite.Latest())
	if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable || !strings.Contains(err.Error(), want) {
		t.Fatalf("write to a store a newer member migrated: %v, want unavailable saying %q", err, want)
	}
	if _, err := s.GetRun(ctx, "run-1"); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("the refused run: %v, want not found", err)
	}
	if _, err := s.GetSite(ctx, site.ID); err != nil {
		t.Fatalf("read of a store a newer member migrated: %v", err)
	}
}
