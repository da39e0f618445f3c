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
	// Name is the listener's name in errors and logs ("admin" when empty).
	Name string
	// ReleaseRequests ends every request's context when shutdown begins,
	// so long polls return at once instead of holding the drain.
	ReleaseRequests bool
	// Limits shed idle and slow clients (DefaultLimits where zero).
	Limits Limits
	// Wrap, when set, takes the place of the MaxConns cap: it gets the
	// bound listener and returns one that bounds its connections itself
	// (the agent listener's guard, which also runs its TLS).
	Wrap func(net.Listener) net.Listener
}

// Run serves until ctx is done and returns nil after a clean shutdown.
// Requests still running after ShutdownTimeout are cut and reported.
func (s *Server) Run(ctx context.Context) error {
	name := s.Name
	if name == "" {
		name = "admin"
	}
	base, release := context.WithCancel(context.WithoutCancel(ctx))
	defer release()
	srv := &http.Server{
		Handler:     s.Handler,
		ErrorLog:    slog.NewLogLogger(s.Logger.Handler(), slog.LevelWarn),
		BaseContext: func(net.Listener) context.Context { return base },
	}
	s.Limits.apply(srv)
	var ln net.Listener
	if s.Wrap != nil {
		ln = s.Wrap(s.Listener)
	} else {
		ln = s.Limits.capped(s.Listener)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("api: serve %s listener %s: %w", name, s.Listener.Addr(), err)
	case <-ctx.Done():
	}
	if s.ReleaseRequests {
		release()
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		srv.Close()
		return fmt.Errorf("api: shut down %s listener %s: %w", name, s.Listener.Addr(), err)
	}
	s.Logger.Info(name+" listener stopped", "addr", s.Listener.Addr().String())
	return nil
}
