// Package agentflow runs the real agent (package agent, its mTLS transport
// and state directory) against the real agent API (agentenv) on loopback
// TLS: enrollment, task delivery, results, lease expiry and requeue, and
// the agent's refusal of tampered, misrouted, expired and replayed tasks,
// and the agent binary's health watch on a simulated GPU host (an Xid 79
// reported, carried across a refused report). Its benchmark measures the
// agent binary's resident memory, with the health watch off and on.
package agentflow
