package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/outbox"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// TestServeDeliversOutbox: an event recorded while the daemon was down
// is POSTed, signed, to events.url after the next start.
func TestServeDeliversOutbox(t *testing.T) {
	got := make(chan outbox.Envelope, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sig := r.Header.Get(outbox.SignatureHeader)
		ts, _, _ := strings.Cut(strings.TrimPrefix(sig, "t="), ",")
		n, _ := strconv.ParseInt(ts, 10, 64)
		if sig != outbox.Sign([]byte("cp-secret"), n, body) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var e outbox.Envelope
		_ = json.Unmarshal(body, &e)
		got <- e
	}))
	defer srv.Close()
	dir := t.TempDir()
	secret, cfg := filepath.Join(dir, "events.secret"), filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(secret, []byte("cp-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	yaml := fmt.Sprintf("events:\n  url: %s/events\n  secret_file: %s\n  timeout: 2s\n", srv.URL, secret)
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	stateDir := filepath.Join(dir, "state")
	first := startServe(t, stateDir, nil, "--config", cfg)
	first.waitReady()
	stop(t, first)

	st, err := bolt.Open(filepath.Join(stateDir, bolt.FileName), bolt.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.AppendEvent(context.Background(), lifecycle.OutboxEvent{ID: "ev-1", Type: lifecycle.EventNodeDisabled, NodeID: "n1"})
	if cerr := st.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}

	second := startServe(t, stateDir, nil, "--config", cfg)
	second.waitReady()
	select {
	case e := <-got:
		if e.ID != "ev-1" || e.Type != lifecycle.EventNodeDisabled || e.NodeID != "n1" {
			t.Errorf("delivered %+v, want ev-1 node.disabled of n1", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no event delivered; log:\n%s", second.log())
	}
	stop(t, second)
}
