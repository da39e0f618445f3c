package answer

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// FaultRequest is the body of POST /nodes/{id}/faults: a fault the GPU
// cloud reports on a node. The idempotency key may come in the
// Idempotency-Key header instead; both given, they must agree.
type FaultRequest struct {
	Kind           string `json:"kind"`
	Reporter       string `json:"reporter"`
	Text           string `json:"text,omitempty"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// FaultAnswer is what became of a reported fault: its history entry
// (with the decision), whether this request recorded it (false for a
// retry), and the node's state after it.
type FaultAnswer struct {
	Entry      lifecycle.HealthEntry `json:"entry"`
	Created    bool                  `json:"created"`
	NodeStatus lifecycle.NodeState   `json:"node_status"`
}

// NodeHealthView answers GET /nodes/{id}/health: the node's verdict with
// its checks (Verdict unknown and no checks before its first report) and
// its newest history entries.
type NodeHealthView struct {
	Health  lifecycle.NodeHealth    `json:"health"`
	History []lifecycle.HealthEntry `json:"history"`
}
