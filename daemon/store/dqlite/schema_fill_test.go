//go:build dqlite

package dqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// runCols is one run's migration-6 columns as stored.
type runCols struct {
	ID, Kind, Status, Node, Batch string
	Requested                     int64
}

func readRunCols(t *testing.T, s *dqlite.Store, where string) []runCols {
	t.Helper()
	rows, err := s.DB().QueryContext(context.Background(),
		`SELECT id, kind, status, node_id, batch_id, requested_at FROM runs WHERE `+where+` ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []runCols
	for rows.Next() {
		var c runCols
		if err := rows.Scan(&c.ID, &c.Kind, &c.Status, &c.Node, &c.Batch, &c.Requested); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Migration 6 fills the run columns of 50,000 stored runs in one
// statement, well within one store operation's timeout, and the values
// it derives from the records (request times in other zones, with and
// without fractions, before 1970; runs without node or batch) are the
// ones saveRun writes.
func TestSchemaFillsRunColumnsOfLargeStore(t *testing.T) {
	ctx, dir, addr, clock := context.Background(), t.TempDir(), freeport.Addr(t), storetest.NewClock()
	s := mustOpen(t, dir, addr, clock)
	site := lifecycle.Site{ID: "site-1", Name: "maas-1", RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
	if err := s.CreateSite(ctx, site, lifecycle.DefaultSitePolicy(site.ID)); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	times := []time.Time{{}, base, base.Add(123456789), base.In(time.FixedZone("", 2*3600)).Add(500 * time.Millisecond),
		base.In(time.FixedZone("", -(7*3600 + 1800))).Add(59*time.Second + 999999900),
		time.Unix(0, 0).UTC(), time.Unix(0, 1).UTC(), time.Unix(-1, 999999900).UTC(), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2200, 12, 31, 23, 59, 59, 1, time.FixedZone("", 14*3600))}
	for i, at := range times {
		r := lifecycle.Run{ID: fmt.Sprintf("a-%02d", i), Kind: lifecycle.RunDecommission, SiteID: site.ID,
			Status: lifecycle.JobPending, RequestedAt: at}
		if i%2 == 1 {
			r.Kind, r.NodeID, r.BatchID = lifecycle.RunOnboarding, "n1", "b1"
		}
		if err := s.CreateRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	want := readRunCols(t, s, `id LIKE 'a-%'`)
	// 50,000 more runs copied from one record in one statement
	seed := `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 50000)
		INSERT INTO runs (id, site_id, data) SELECT printf('b-%05d', i), site_id,
		json_set(data, '$.id', printf('b-%05d', i), '$.requested_at', strftime('%Y-%m-%dT%H:%M:%SZ', 1714557600 + i, 'unixepoch'))
		FROM c, (SELECT site_id, data FROM runs WHERE id = 'a-01')`
	for _, q := range append([]string{seed}, append(undoRunColumns, `UPDATE schema_version SET version = 5`)...) {
		if _, err := s.DB().ExecContext(ctx, q); err != nil {
			t.Fatal(q, err)
		}
	}
	s.Close()

	start := time.Now()
	s = mustOpen(t, dir, addr, clock)
	took := time.Since(start)
	t.Logf("migrated 50,000 runs in %v", took)
	if took > dqlite.DefaultTimeout {
		t.Errorf("migrating 50,000 runs took %v, want within one operation's timeout (%v)", took, dqlite.DefaultTimeout)
	}
	if diff := cmp.Diff(want, readRunCols(t, s, `id LIKE 'a-%'`)); diff != "" {
		t.Errorf("columns filled by migration 6 differ from those saveRun writes (-saveRun +migration):\n%s", diff)
	}
	got := readRunCols(t, s, `id IN ('b-00001', 'b-50000')`)
	wantBulk := []runCols{{"b-00001", "onboarding", "pending", "n1", "b1", 1714557601 * 1e9},
		{"b-50000", "onboarding", "pending", "n1", "b1", (1714557600 + 50000) * 1e9}}
	if diff := cmp.Diff(wantBulk, got); diff != "" {
		t.Errorf("bulk runs' columns (-want +got):\n%s", diff)
	}
}
