//go:build integration

package pgnotify_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// A server that drops every connection as soon as it listens (a kill
// script, a pooler) is not hammered at MinBackoff: the backoff starts over
// only after a connection lived for Health, so the delays keep doubling.
func TestDroppedConnectionsBackOff(t *testing.T) {
	s := pgtest.Start(t)
	leastPrivilege(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	killer, err := pgx.Connect(ctx, s.SuperDSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	killed := make(chan struct{})
	defer func() { cancel(); <-killed; killer.Close(context.Background()) }()
	go func() {
		defer close(killed)
		for ctx.Err() == nil {
			_, _ = killer.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'listener'")
			time.Sleep(10 * time.Millisecond)
		}
	}()
	r := start(t, pgnotify.Source{DSN: dsn(s, "listener", "maasdb"), Password: password(listenerPassword)}, time.Minute)
	time.Sleep(3 * time.Second)
	ev, _ := r.snapshot()
	// Delays of 50 ms to 400 ms doubling: about 10 connects in 3 s;
	// starting over at every LISTEN would make about 30.
	if n := count(ev, "listening"); n < 3 || n > 15 {
		t.Fatalf("%d connects in 3 s against a server that drops each one, want 3-15: %v", n, ev)
	}
	if count(ev, "down:lost") < 2 {
		t.Fatalf("the dropped connections were not reported as lost: %v", ev)
	}
}
