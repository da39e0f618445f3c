package connguard

import (
	"crypto/tls"
	"time"

	"github.com/jonboulle/clockwork"
)

// Refusal reasons, the values passed to Options.OnRefuse; a bounded set.
const (
	RefusedPerSource       = "per_source"            // the source address holds PerSource unauthenticated connections
	RefusedUnauthenticated = "unauthenticated_share" // unauthenticated connections fill their share
	RefusedFull            = "max_conns"             // the listener holds MaxConns connections
	RefusedHandshake       = "handshake"             // the handshake failed or ran past HandshakeTimeout
)

// Reasons lists every refusal reason (to register metric labels at zero).
var Reasons = []string{RefusedPerSource, RefusedUnauthenticated, RefusedFull, RefusedHandshake}

// Options bound a guarded listener. A zero field means its default.
type Options struct {
	// MaxConns caps the listener's connections (default 1024).
	MaxConns int
	// PerSource caps one source address's connections that have no
	// verified client certificate yet, handshaking or enrolling (default
	// 128); authenticated ones count only against MaxConns.
	PerSource int
	// UnauthenticatedPercent is the share of MaxConns that connections
	// without a verified client certificate may hold (default 25).
	UnauthenticatedPercent int
	// HandshakeTimeout closes a connection whose TLS handshake has not
	// finished (default 10s).
	HandshakeTimeout time.Duration
	// TLS is the server's TLS config; its ClientAuth decides which
	// certificates count as verified.
	TLS *tls.Config
	// OnRefuse, when set, is called with the reason of every refusal.
	OnRefuse func(reason string)
	// Clock times the pause after a failed accept (the real clock when
	// nil); the handshake's bound is the connection's own deadline.
	Clock clockwork.Clock
}

// WithDefaults fills every zero field with its default.
func (o Options) WithDefaults() Options {
	if o.MaxConns == 0 {
		o.MaxConns = 1024
	}
	if o.PerSource == 0 {
		o.PerSource = 128
	}
	if o.UnauthenticatedPercent == 0 {
		o.UnauthenticatedPercent = 25
	}
	if o.HandshakeTimeout == 0 {
		o.HandshakeTimeout = 10 * time.Second
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.OnRefuse == nil {
		o.OnRefuse = func(string) {}
	}
	return o
}

// unauthenticatedCap is the most connections without a verified
// certificate, at least one.
func (o Options) unauthenticatedCap() int {
	return max(1, o.MaxConns*o.UnauthenticatedPercent/100)
}
