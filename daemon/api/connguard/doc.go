// Package connguard admits a TLS listener's connections so that no single
// source can exhaust it. Each connection must finish its TLS handshake
// within a bound; one source address holds at most PerSource connections
// that have not shown a verified client certificate; those connections
// (handshaking, or finished without one) also hold at most a share of
// MaxConns, so the rest is kept for clients that proved a certificate. A
// connection over a bound is closed at once and its reason counted,
// instead of waiting in the kernel's accept queue behind the flood.
package connguard
