package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Server serves a handler on an already bound listener until its context
// ends, then shuts down gracefully within ShutdownTimeout.
type Server struct {
	Listener        net.Listener
	Handler         http.Handler
	ShutdownTimeout time.Duration
	Logger          *slog.Logger
}

// Run serves until ctx is done and returns nil after a clean shutdown.
// Requests still running after ShutdownTimeout are cut and reported.
func (s *Server) Run(ctx context.Context) error {
	srv := &http.Server{
		Handler:           s.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.Logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(s.Listener) }()
	select {
	case err := <-errc:
		return fmt.Errorf("api: serve %s: %w", s.Listener.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		srv.Close()
		return fmt.Errorf("api: shut down %s: %w", s.Listener.Addr(), err)
	}
	s.Logger.Info("admin listener stopped", "addr", s.Listener.Addr().String())
	return nil
}
