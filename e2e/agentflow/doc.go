// Package agentflow runs the real agent (package agent, its mTLS transport
// and state directory) against the real agent API (agentenv) on loopback
// TLS: enrollment, task delivery, results, lease expiry and requeue, and
// the agent's refusal of tampered, misrouted, expired and replayed tasks.
// Its benchmark measures the agent binary's resident memory.
package agentflow
