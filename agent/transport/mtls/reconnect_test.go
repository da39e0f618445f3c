package mtls

import (
	"context"
	"encoding/pem"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// TestUnavailableDropsTheConnection: after a 503 the agent's next call
// comes on a new connection (a balancer may send it to another daemon),
// while calls answered 2xx keep theirs.
func TestUnavailableDropsTheConnection(t *testing.T) {
	var status atomic.Int32
	status.Store(http.StatusNoContent)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s := int(status.Load()); s != http.StatusNoContent {
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"status":503}`, s)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	var conns atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	c, err := New(srv.URL, ca, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wait := func() error { _, err := c.Wait(ctx, "node-1", time.Second); return err }
	for range 2 {
		if err := wait(); err != nil {
			t.Fatal(err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections for two answered polls, want 1", n)
	}
	status.Store(http.StatusServiceUnavailable)
	if err := wait(); err == nil {
		t.Fatal("a 503 was not an error")
	}
	status.Store(http.StatusNoContent)
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections after a 503 and a poll, want 2 (a new one after the 503)", n)
	}
}

// An HTTP-date Retry-After counts from the client's clock.
func TestRetryAfterDateCountsFromTheClock(t *testing.T) {
	now := time.Date(2020, 5, 1, 0, 0, 0, 0, time.UTC)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat))
		http.Error(w, `{"status":503}`, http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	c, err := New(srv.URL, ca, clockwork.NewFakeClockAt(now))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Wait(context.Background(), "node-1", time.Second)
	var p *wire.Problem
	if !errors.As(err, &p) || p.RetryAfter != 90*time.Second {
		t.Fatalf("Wait() = %v, want a problem retrying after 90s", err)
	}
}
