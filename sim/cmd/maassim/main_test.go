package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// The command serves MAAS on --listen and stops cleanly when its context
// (SIGTERM in main) ends.
func TestServeUntilCancelled(t *testing.T) {
	addr := freeport.Addr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, config{listen: addr, apiKey: "ck:tk:ts", machines: 2, speed: 60, seed: 1, images: "x"},
			slog.New(slog.DiscardHandler))
	}()
	var body string
	for i := 0; i < 100; i++ {
		r, err := http.Get("http://" + addr + "/MAAS/api/2.0/version/")
		if err == nil {
			b, _ := io.ReadAll(r.Body)
			r.Body.Close()
			body = string(b)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(body, `"version":"3.6.5"`) {
		t.Fatalf("version: %q", body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	if err := run(context.Background(), config{}, slog.New(slog.DiscardHandler)); err == nil {
		t.Fatal("missing --api-key accepted")
	}
}

// A --postgres database that does not answer stops the command at start
// with an error naming the flag, never the password.
func TestPostgresUnreachable(t *testing.T) {
	err := run(context.Background(), config{listen: "127.0.0.1:0", apiKey: "ck:tk:ts", images: "x",
		postgres: "postgres://maas:pw-secret@127.0.0.1:1/maas?connect_timeout=2"}, slog.New(slog.DiscardHandler))
	if err == nil || !strings.HasPrefix(err.Error(), "--postgres: ") || strings.Contains(err.Error(), "pw-secret") {
		t.Fatalf("run = %v, want a --postgres error without the password", err)
	}
}

// --arm64-every makes every Nth seeded machine an arm64 (Grace) host; its
// MACHINE line says so.
func TestSeedArchitectures(t *testing.T) {
	sim, err := maassim.New(maassim.Options{APIKey: "ck:tk:ts"})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := seed(sim, config{machines: 4, arm64Every: 2}, &out); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		f := strings.Fields(l)
		got = append(got, f[1]+" "+f[len(f)-1])
	}
	want := []string{"hostname=gpu-001 arch=amd64/generic", "hostname=gpu-002 arch=arm64/generic",
		"hostname=gpu-003 arch=amd64/generic", "hostname=gpu-004 arch=arm64/generic"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("MACHINE lines (-want +got):\n%s", d)
	}
}
