// Package agentapi is the daemon's agent API: enrollment with a one-time
// token, long-poll task delivery (which is also the agent's heartbeat),
// task results and certificate renewal, over TLS with client certificates
// on every route but enroll. It declares the small interfaces it consumes
// (the store subset, a certificate authority, a task signer) and never
// imports an adapter; the daemon's main wires daemon/pki and the store in.
package agentapi
