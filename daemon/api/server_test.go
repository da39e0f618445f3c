package api

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

func hasLabel(ls []*dto.LabelPair, name, value string) bool {
	for _, l := range ls {
		if l.GetName() == name && l.GetValue() == value {
			return true
		}
	}
	return false
}

func TestServerRunsUntilCancelled(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var r Readiness
	s := &Server{Listener: ln, Handler: NewRouter(Deps{Readiness: &r, Metrics: NewRegistry("x")}),
		ShutdownTimeout: time.Second, Logger: slog.New(slog.DiscardHandler)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()

	resp, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run() = %v, want nil after cancel", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run() did not return after cancel")
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/healthz"); err == nil {
		t.Error("listener still answers after shutdown")
	}
}

func TestServerReportsServeFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close() // Serve fails at once
	s := &Server{Listener: ln, Handler: http.NotFoundHandler(), ShutdownTimeout: time.Second, Logger: slog.New(slog.DiscardHandler)}
	if err := s.Run(context.Background()); err == nil {
		t.Fatal("Run() on a closed listener = nil, want an error")
	}
}
