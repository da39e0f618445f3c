//go:build integration

package pgtest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// TestServerAuthListenRestart: the cluster refuses a wrong password,
// delivers a NOTIFY to a LISTENing connection, and comes back on the same
// port after a restart.
func TestServerAuthListenRestart(t *testing.T) {
	s := pgtest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := pgx.Connect(ctx, s.DSN("postgres", "wrong", "postgres")); err == nil || !strings.Contains(err.Error(), "password authentication failed") {
		t.Fatalf("wrong password: err = %v, want password authentication failed", err)
	}
	c, err := pgx.Connect(ctx, s.SuperDSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, "LISTEN machine_update"); err != nil {
		t.Fatal(err)
	}
	s.Exec(t, "", "SELECT pg_notify('machine_update', 'abc123')")
	n, err := c.WaitForNotification(ctx)
	if err != nil || n.Channel != "machine_update" || n.Payload != "abc123" {
		t.Fatalf("notification = %+v, %v", n, err)
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, "SELECT 1"); err == nil {
		t.Fatal("a connection made before the restart still works")
	}
	s.Exec(t, "", "SELECT 1")
}
