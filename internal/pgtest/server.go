package pgtest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gpuaas/maas-sidecar/internal/pgcluster"
)

// SuperPassword is the password of the cluster's superuser "postgres".
const SuperPassword = "pgtest-super"

// Server is one running test cluster.
type Server struct{ *pgcluster.Cluster }

// Start creates a cluster and starts it; the test's cleanup stops it and
// removes its files. Any failure, a missing server included, fails t.
func Start(t testing.TB) *Server {
	t.Helper()
	c, err := pgcluster.Create(SuperPassword)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() { _ = c.Remove() })
	return &Server{c}
}

// Exec runs statements as the superuser on database ("postgres" when
// empty), failing t on error.
func (s *Server) Exec(t testing.TB, database string, sql ...string) {
	t.Helper()
	if database == "" {
		database = "postgres"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.SuperDSN(database))
	if err != nil {
		t.Fatalf("pgtest: connect %s: %v", database, err)
	}
	defer c.Close(ctx)
	for _, q := range sql {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("pgtest: %s: %v", q, err)
		}
	}
}
