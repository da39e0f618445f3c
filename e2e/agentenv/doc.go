// Package agentenv wires the daemon's real agent API for tests and
// benchmarks: a bbolt store in a temp dir, the internal CA and signing key
// of daemon/pki, and agentapi served over TLS on a loopback port. Store
// and CA share one fake clock that starts at the real time, so leases and
// expiries move by hand while TLS still checks real certificates.
package agentenv
