//go:build integration

package main

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// --postgres mirrors the seeded machines into maasserver_node, and the
// command still stops cleanly.
func TestPostgresFlagMirrors(t *testing.T) {
	pg := pgtest.Start(t)
	pg.Exec(t, "", "CREATE DATABASE maas")
	addr := freeport.Addr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, config{listen: addr, apiKey: "ck:tk:ts", machines: 2, speed: 60, seed: 1, images: "x",
			postgres: pg.SuperDSN("maas")}, slog.New(slog.DiscardHandler))
	}()
	var names []string
	for end := time.Now().Add(10 * time.Second); len(names) < 2 && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		names = hostnames(t, pg)
	}
	if len(names) != 2 || names[0] != "gpu-001" || names[1] != "gpu-002" {
		t.Fatalf("maasserver_node hostnames = %v, want [gpu-001 gpu-002]", names)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
}

func hostnames(t *testing.T, pg *pgtest.Server) []string {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, pg.SuperDSN("maas"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	rows, _ := c.Query(ctx, "SELECT hostname FROM maasserver_node WHERE node_type = 0 ORDER BY hostname")
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil // the mirror has not created the table yet
	}
	return names
}
