package agentapi

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// DefaultListen is the agent listener's default address (--agent-listen).
const DefaultListen = ":5291"

// TLSConfig is the agent listener's TLS: TLS 1.3, the server certificate,
// and client certificates verified against the CA when given. Routes
// other than enroll then insist on one (requireNode).
func TLSConfig(server tls.Certificate, caPEM []byte) (*tls.Config, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, errors.New("agentapi: CA bundle holds no certificate")
	}
	return &tls.Config{
		MinVersion:   tls.VersionTLS13,
		Certificates: []tls.Certificate{server},
		ClientAuth:   tls.VerifyClientCertIfGiven,
		ClientCAs:    pool,
	}, nil
}

// Server serves the agent API over TLS on a bound listener until its
// context ends. Long polls are released at shutdown (their request
// context ends), then the server drains within ShutdownTimeout.
type Server struct {
	Listener        net.Listener
	Handler         http.Handler
	TLS             *tls.Config
	ShutdownTimeout time.Duration
	Logger          *slog.Logger
}

// Run serves until ctx is done; nil after a clean shutdown.
func (s *Server) Run(ctx context.Context) error {
	base, release := context.WithCancel(context.WithoutCancel(ctx))
	defer release()
	srv := &http.Server{
		Handler: s.Handler, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:    slog.NewLogLogger(s.Logger.Handler(), slog.LevelWarn),
		BaseContext: func(net.Listener) context.Context { return base },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(tls.NewListener(s.Listener, s.TLS)) }()
	select {
	case err := <-errc:
		return fmt.Errorf("agentapi: serve %s: %w", s.Listener.Addr(), err)
	case <-ctx.Done():
	}
	release()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		srv.Close()
		return fmt.Errorf("agentapi: shut down %s: %w", s.Listener.Addr(), err)
	}
	s.Logger.Info("agent listener stopped", "component", "agentapi", "addr", s.Listener.Addr().String())
	return nil
}
