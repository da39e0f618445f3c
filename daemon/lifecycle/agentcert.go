package lifecycle

import "time"

// CertVerdict is what a node's record says of a presented agent
// certificate serial.
type CertVerdict string

// Verdicts. Only CertCurrent and CertPrevious are accepted.
const (
	CertCurrent    CertVerdict = "current"
	CertPrevious   CertVerdict = "previous"   // within the renewal overlap
	CertRevoked    CertVerdict = "revoked"    // the node has no current certificate
	CertSuperseded CertVerdict = "superseded" // any other serial
)

// CheckAgentCert judges serial against the node's agent identity at now.
func (n Node) CheckAgentCert(serial string, now time.Time) CertVerdict {
	switch {
	case n.AgentCertSerial == "":
		return CertRevoked
	case serial == n.AgentCertSerial:
		return CertCurrent
	case serial == n.PrevAgentCertSerial && n.PrevAgentCertUntil != nil && now.Before(*n.PrevAgentCertUntil):
		return CertPrevious
	}
	return CertSuperseded
}

// SetAgentCert makes serial (with its DER) the node's current certificate.
// A renewal keeps the old serial acceptable until overlapUntil; an
// enrollment leaves no overlap.
func (n *Node) SetAgentCert(serial string, der []byte, renewal bool, overlapUntil time.Time) {
	n.PrevAgentCertSerial, n.PrevAgentCertUntil = "", nil
	if renewal && n.AgentCertSerial != "" && n.AgentCertSerial != serial {
		n.PrevAgentCertSerial, n.PrevAgentCertUntil = n.AgentCertSerial, &overlapUntil
	}
	n.AgentCertSerial, n.AgentCert = serial, der
}

// EndCertOverlap drops the previous serial: the current one was used.
func (n *Node) EndCertOverlap() { n.PrevAgentCertSerial, n.PrevAgentCertUntil = "", nil }

// ClearAgentIdentity forgets every agent certificate of the node at `at`:
// after a revoke, a reimage, a decommission or a deletion no certificate
// issued before is accepted, and the agent must enroll again with a token
// issued after it (a token issued before `at`, spent or not, is refused:
// see TokenPredatesClear).
func (n *Node) ClearAgentIdentity(at time.Time) {
	n.AgentCertSerial, n.AgentCert = "", nil
	n.EndCertOverlap()
	n.IdentityClearedAt = &at
}

// TokenPredatesClear reports whether a token created at createdAt was
// issued before the node's identity was last cleared: it must not enroll,
// not even as the answer-lost retry of the key that spent it, or the host
// whose identity was revoked (or wiped by a reimage) could take it back.
func (n Node) TokenPredatesClear(createdAt time.Time) bool {
	return n.IdentityClearedAt != nil && createdAt.Before(*n.IdentityClearedAt)
}
