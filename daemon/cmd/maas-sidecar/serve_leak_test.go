package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/gpuaas/maas-sidecar/daemon/config"
)

// logLines collects JSON log lines from any goroutine.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logLines) records() []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(l.buf.String(), "\n") {
		var r map[string]any
		if json.Unmarshal([]byte(line), &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

func (l *logLines) has(msg string) bool {
	for _, r := range l.records() {
		if r["msg"] == msg {
			return true
		}
	}
	return false
}

// TestServeOwnsItsGoroutines runs serve in process until ready, cancels it,
// and finds the shutdown stages in order and no goroutine left behind: not
// the listeners', the core's, the watchdog's, nor (in dev mode, in a
// build with the dev tag) the simulator's and its hosts'.
func TestServeOwnsItsGoroutines(t *testing.T) {
	modes := []bool{false}
	if devBuilt {
		modes = append(modes, true)
	}
	for _, dev := range modes {
		t.Run(map[bool]string{false: "production", true: "dev mode"}[dev], func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			cfg := config.Default()
			cfg.StateDir = filepath.Join(t.TempDir(), "state")
			cfg.AdminListen, cfg.Agent.Listen = "127.0.0.1:0", "127.0.0.1:0"
			cfg.Dev, cfg.DevIdle = dev, dev
			var logs logLines
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- serve(ctx, cfg, slog.New(slog.NewJSONHandler(&logs, nil))) }()
			for deadline := time.Now().Add(10 * time.Second); !logs.has("maas-sidecar ready"); {
				if time.Now().After(deadline) {
					t.Fatalf("serve not ready within 10 s; log:\n%s", logs.buf.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("serve() = %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("serve did not return within 10 s of its context ending")
			}
			var got []string
			for _, r := range logs.records() {
				switch r["msg"] {
				case "shutdown stage done":
					got = append(got, r["stage"].(string))
				case "maas-sidecar stopped":
					got = append(got, "store closed")
				}
			}
			if d := cmp.Diff([]string{"http", "core", "adapters", "store closed"}, got); d != "" {
				t.Errorf("shutdown (-want +got):\n%s", d)
			}
		})
	}
}

// TestStopDuringStartUp: a stop signal that arrives while the store is
// still being opened (systemctl stop right after start) is a clean stop,
// not a failure, and leaves no goroutine behind.
func TestStopDuringStartUp(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	cfg := config.Default()
	cfg.StateDir = filepath.Join(t.TempDir(), "state")
	cfg.AdminListen, cfg.Agent.Listen = "127.0.0.1:0", "127.0.0.1:0"
	var logs logLines
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := serve(ctx, cfg, slog.New(slog.NewJSONHandler(&logs, nil))); err != nil {
		t.Fatalf("serve() stopped during start-up = %v, want nil", err)
	}
	if !logs.has("maas-sidecar stopped during start-up") {
		t.Errorf("no start-up stop logged:\n%s", logs.buf.String())
	}
}
