package wire

import "time"

// EnrollRequest is the body of POST RouteEnroll. Token is the one-time
// enrollment secret from cloud-init; CSR is a PEM certificate request for
// the key the agent made locally.
type EnrollRequest struct {
	NodeID string `json:"node_id"`
	Token  string `json:"token"`
	CSR    string `json:"csr"`
	// Inventory is the host's bill of materials at enrollment; absent
	// from an agent that predates it.
	Inventory *Inventory `json:"inventory,omitempty"`
}

// RenewRequest is the body of POST RouteRenew: a CSR for a fresh key,
// authenticated by the current client certificate.
type RenewRequest struct {
	CSR string `json:"csr"`
}

// CertResponse answers enrollment and renewal: the client certificate and
// the CA bundle that signed it (and the agent API's server certificate),
// both PEM.
type CertResponse struct {
	Certificate string    `json:"certificate"`
	CABundle    string    `json:"ca_bundle"`
	Serial      string    `json:"serial"`
	NotAfter    time.Time `json:"not_after"`
}

// Task is one signed task as delivered by RouteWait. Signature covers
// every other field (see SigningPayload).
type Task struct {
	ID        string    `json:"id"`
	NodeID    string    `json:"node_id"`
	Type      string    `json:"type"`
	Payload   []byte    `json:"payload,omitempty"` // JSON object, sent as base64 so the signed bytes travel unchanged
	ExpiresAt time.Time `json:"expires_at"`
	Seq       uint64    `json:"seq"`
	// CertSerial binds the task to one life of the node: the serial (hex,
	// as the daemon records it) of the client certificate that claimed it.
	// An agent runs a task only when it names its own certificate, so a
	// reimaged host refuses tasks issued to its previous identity. Empty
	// from a daemon that predates the binding.
	CertSerial string `json:"cert_serial,omitempty"`
	Signature  []byte `json:"signature"`
}

// Result is the body of POST RouteResult. Seq is the dispatch sequence the
// result answers; Rejected says the agent refused the task unrun.
// Evidence is set by the cleanup, scrub and validation tasks, on success
// and on failure alike.
type Result struct {
	Seq        uint64            `json:"seq"`
	Success    bool              `json:"success"`
	Rejected   bool              `json:"rejected,omitempty"`
	Message    string            `json:"message,omitempty"`
	Details    map[string]string `json:"details,omitempty"`
	Evidence   *Evidence         `json:"evidence,omitempty"`
	FinishedAt time.Time         `json:"finished_at"`
}

// ResultAck answers a result with the task's state in the queue.
type ResultAck struct {
	TaskID string `json:"task_id"`
	State  string `json:"state"`
}

// TokenRenewRequest is the body of POST RouteRenewToken: the expired token
// and the SHA-256 (lower-case hex, see TokenHash) of the token the agent
// made to replace it. The successor itself never leaves the host.
type TokenRenewRequest struct {
	NodeID        string `json:"node_id"`
	Token         string `json:"token"`
	NextTokenHash string `json:"next_token_hash"`
}

// TokenRenewResponse answers a renewal: the successor is valid until
// ExpiresAt.
type TokenRenewResponse struct {
	ExpiresAt time.Time `json:"expires_at"`
}
