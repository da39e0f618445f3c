//go:build integration

package notifyfwd

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// PostgreSQL to the daemon's webhook contract: a least-privileged role
// listens, a burst on one machine becomes one signed hint with the
// latest type, each hint has its own id, and Run stops cleanly when its
// context ends.
func TestForwardsSignedHintsFromPostgreSQL(t *testing.T) {
	s := pgtest.Start(t)
	s.Exec(t, "", "CREATE DATABASE maasdb", "REVOKE CONNECT ON DATABASE maasdb FROM PUBLIC",
		"CREATE ROLE listener LOGIN PASSWORD 'fwd-pw'", "GRANT CONNECT ON DATABASE maasdb TO listener")
	rv := newReceiver("whsec-1", "site-1")
	srv := httptest.NewServer(rv)
	defer srv.Close()
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("whsec-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	listening := make(chan struct{})
	reg := prometheus.NewRegistry()
	metrics := NewMetrics(reg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Site: "site-1", URL: srv.URL + "/api/v1/webhooks/maas",
			Secret: SecretFile(secret), MinBackoff: 50 * time.Millisecond, MaxBackoff: time.Second,
			Source: pgnotify.Source{DSN: fmt.Sprintf("postgres://listener@127.0.0.1:%d/maasdb?sslmode=disable", s.Port()),
				Password: func(context.Context) (string, error) { return "fwd-pw", nil }},
			Listening: func() { close(listening) }, Metrics: metrics})
	}()
	select {
	case <-listening:
	case <-time.After(20 * time.Second):
		t.Fatal("the forwarder never listened")
	}
	if up := testutil.ToFloat64(metrics.listenerUp); up != 1 {
		t.Fatalf("listener_up = %v while LISTEN holds", up)
	}
	s.Exec(t, "maasdb", "SELECT pg_notify('machine_update', 'aaa111')", "SELECT pg_notify('machine_update', 'aaa111')",
		"SELECT pg_notify('machine_delete', 'aaa111')", "SELECT pg_notify('machine_create', 'bbb222')")
	hints := rv.wait(t, 2, 10*time.Second)
	time.Sleep(500 * time.Millisecond) // no third hint follows
	if got, _ := rv.took(); len(got) != 2 {
		t.Fatalf("hints %+v, want one per machine", got)
	}
	if hints[0].SystemID != "aaa111" || hints[0].Type != "machine_delete" || hints[1].SystemID != "bbb222" ||
		hints[1].Type != "machine_create" || hints[0].ID == hints[1].ID {
		t.Fatalf("hints %+v", hints)
	}
	if n, err := testutil.GatherAndCount(reg, "maas_sidecar_notify_forward_delivered_total"); err != nil || n != 1 ||
		testutil.ToFloat64(metrics.delivered) != 2 {
		t.Fatalf("delivered_total: %d series (%v), value %v; want 2", n, err, testutil.ToFloat64(metrics.delivered))
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); testutil.ToFloat64(metrics.listenerUp) != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("listener_up still 1 with the database stopped")
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v after its context ended", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
}

func newReceiver(secret, site string) *receiver {
	return &receiver{secret: secret, site: site, now: time.Now}
}

// wait waits for n hints taken.
func (rv *receiver) wait(t *testing.T, n int, d time.Duration) []hint {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if h, _ := rv.took(); len(h) >= n {
			return h
		}
		time.Sleep(10 * time.Millisecond)
	}
	h, a := rv.took()
	t.Fatalf("took %+v (answers %v), want %d hints", h, a, n)
	return nil
}
