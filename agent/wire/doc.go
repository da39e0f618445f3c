// Package wire holds the agent protocol: the request and response bodies of
// the agent API, the routes, the node identity carried in client
// certificates, and the canonical signing payload of a task with its
// ed25519 Sign and Verify helpers. It is the only code the daemon and the
// agent share, and it imports only the standard library.
package wire
