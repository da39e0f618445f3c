package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The command serves MAAS on --listen and stops cleanly when its context
// (SIGTERM in main) ends.
func TestServeUntilCancelled(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
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
