//go:build dqlite

package dqlite_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/daemon/store/storetest"
)

// The whole suite on a 3-node cluster, through a store on the leader and
// through one on a follower (whose queries dqlite sends to the leader).
// Each group gets a database of its own on the one cluster.
func TestConformanceCluster(t *testing.T) {
	c := startCluster(t, 3, nil)
	leader := c.leader(t, 0)
	dbs := 0
	for _, tc := range []struct {
		name string
		node int
	}{{"leader", leader}, {"follower", (leader + 1) % 3}} {
		t.Run(tc.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T, clock *clockwork.FakeClock) storetest.Harness {
				dbs++
				opts := dqlite.Options{Database: fmt.Sprintf("conformance-%d", dbs), Now: clock.Now}
				return storetest.Harness{Open: func(t *testing.T) lifecycle.Store { return c.open(t, tc.node, opts) }}
			})
		})
	}
	if now := c.leader(t, 0); now != leader {
		// an election on a loaded machine: not a store failure
		t.Logf("the leader moved from node %d to %d during the suite: part of the follower run ran on the leader", leader, now)
	}
}

// Members opening a new database at once all succeed: the schema is
// created once, and the others find it at Latest. The same holds for
// members migrating an older database at once.
func TestClusterConcurrentSchemaCreation(t *testing.T) {
	c := startCluster(t, 3, nil)
	openAll(t, c)
	s := c.open(t, 2, dqlite.Options{Database: "race"})
	for _, q := range append([]string{`DROP TABLE batches`, `DROP TABLE submissions`, `DROP TABLE webhook_inbox`,
		`DROP TABLE outbox`, `DROP INDEX nodes_site_status`, `DROP INDEX nodes_status`}, append(undoRunColumns,
		`UPDATE schema_version SET version = 3`)...) {
		if _, err := s.DB().Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	openAll(t, c)
	st, err := s.SchemaStatus(context.Background())
	if err != nil || st.Version != dqlite.Latest() {
		t.Fatalf("schema after concurrent opens: %+v, %v", st, err)
	}
}

// openAll opens database "race" on every member at once.
func openAll(t *testing.T, c *cluster) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(c.nodes))
	for i := range c.nodes {
		wg.Go(func() {
			s, err := c.nodes[i].Open(context.Background(), dqlite.Options{Database: "race"})
			if errs[i] = err; err == nil {
				s.Close()
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("open on node %d: %v", i, err)
		}
	}
}
