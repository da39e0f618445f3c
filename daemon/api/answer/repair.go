package answer

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// RepairResult answers POST /nodes/{id}/repair and
// POST /nodes/{id}/parts/replace: the repair run started (or, for a
// repeated request, the node's unfinished one) and its check.
type RepairResult struct {
	RepairID string             `json:"repair_id"`
	NodeID   string             `json:"node_id"`
	Stage    lifecycle.Stage    `json:"stage"`
	Status   lifecycle.JobState `json:"status"`
}

// PartReplacementRequest is the body of POST /nodes/{id}/parts/replace.
type PartReplacementRequest = lifecycle.PartReplacement

// PartHistory answers GET /parts/{serial}/history: the serial's events,
// oldest first.
type PartHistory struct {
	Serial string                `json:"serial"`
	Events []lifecycle.PartEvent `json:"events"`
}
