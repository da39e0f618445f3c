// Package pki is the daemon's internal public-key infrastructure: a CA
// created at first start under the state directory (and reloaded after),
// short-lived client certificates for agents signed from their CSRs with
// the node id as identity, the agent listener's server certificate, the
// certificates of the store cluster's members (PeerCertificate, checked
// before joining by CheckPeer: every member shares one CA and one
// task-signing key), the ed25519 task-signing key, and one-time enrollment tokens stored only as
// their SHA-256 hash. The filesystem root, the clock and the randomness
// source are injected. No key or token ever reaches a log or an error.
package pki
