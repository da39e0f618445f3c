package agentapi

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api"
	"github.com/gpuaas/maas-sidecar/daemon/api/connguard"
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
	// Limits shed idle and slow clients; MaxConns counts TCP connections
	// from accept, handshake included.
	Limits api.Limits
	// Admission bounds connections per source address, the handshake's
	// time and the unauthenticated share (connguard defaults where zero,
	// but the handshake's, which defaults to 10s and never exceeds the read timeout; its
	// TLS and MaxConns come from TLS and Limits).
	Admission connguard.Options
	// Metrics count refused connections (nil: not counted).
	Metrics *Metrics
}

// Run serves until ctx is done; nil after a clean shutdown.
func (s *Server) Run(ctx context.Context) error {
	lim, o := s.Limits.WithDefaults(), s.Admission
	o.TLS, o.MaxConns, o.OnRefuse = s.TLS, lim.MaxConns, s.Metrics.connRefused
	if o.HandshakeTimeout == 0 {
		o.HandshakeTimeout = 10 * time.Second
	}
	// The handshake is part of reading a request: never longer than the
	// read timeout, so a silent client is cut as before.
	o.HandshakeTimeout = min(o.HandshakeTimeout, lim.ReadTimeout)
	wrap := func(ln net.Listener) net.Listener { return connguard.Listen(ln, o) }
	return (&api.Server{Listener: s.Listener, Wrap: wrap, Handler: s.Handler, Limits: s.Limits,
		ShutdownTimeout: s.ShutdownTimeout, Logger: s.Logger, Name: "agent", ReleaseRequests: true}).Run(ctx)
}
