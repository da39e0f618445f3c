// Package agent is the node agent's main loop: enroll with the one-time
// token (a key made locally, a CSR), then long-poll the daemon for tasks,
// verify each one (signature, node, expiry, never-reused sequence), run it
// (one at a time, with its own context and timeout) and report the
// result. It reconnects with backoff and jitter, renews its certificate
// before expiry and re-enrolls with a freshly read token when its identity
// is lost. It declares the interfaces it needs (Transport and
// task.Systemd); the implementations and their fakes live in subpackages.
// It reads time only through an injected clockwork.Clock.
package agent
