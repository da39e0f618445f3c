package api

import (
	"net"
	"net/http"
	"time"

	"golang.org/x/net/netutil"
)

// Limits bound what one client can hold on a listener. A zero field means
// the default of DefaultLimits.
type Limits struct {
	// ReadTimeout bounds reading a whole request, body included, so a
	// body sent a byte at a time is cut.
	ReadTimeout time.Duration
	// WriteTimeout bounds writing the answer, counted from the end of the
	// request headers; long polls extend their own deadline.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection with no request.
	IdleTimeout time.Duration
	// MaxHeaderBytes caps the request line and headers.
	MaxHeaderBytes int
	// MaxConns caps concurrent connections; further ones wait in the
	// kernel's accept queue.
	MaxConns int
}

// DefaultLimits are the limits of a listener whose config leaves them out.
func DefaultLimits() Limits {
	return Limits{
		ReadTimeout:    30 * time.Second,
		WriteTimeout:   30 * time.Second,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		MaxConns:       1024,
	}
}

// WithDefaults fills every zero field from DefaultLimits.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	if l.ReadTimeout == 0 {
		l.ReadTimeout = d.ReadTimeout
	}
	if l.WriteTimeout == 0 {
		l.WriteTimeout = d.WriteTimeout
	}
	if l.IdleTimeout == 0 {
		l.IdleTimeout = d.IdleTimeout
	}
	if l.MaxHeaderBytes == 0 {
		l.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if l.MaxConns == 0 {
		l.MaxConns = d.MaxConns
	}
	return l
}

// apply sets the limits on srv.
func (l Limits) apply(srv *http.Server) {
	l = l.WithDefaults()
	srv.ReadTimeout = l.ReadTimeout
	srv.ReadHeaderTimeout = min(10*time.Second, l.ReadTimeout)
	srv.WriteTimeout = l.WriteTimeout
	srv.IdleTimeout = l.IdleTimeout
	srv.MaxHeaderBytes = l.MaxHeaderBytes
}

// capped is ln capped at MaxConns: further connections wait in the
// kernel's accept queue.
func (l Limits) capped(ln net.Listener) net.Listener {
	return netutil.LimitListener(ln, l.WithDefaults().MaxConns)
}
