package lifecycle

import "time"

// Batch groups the per-node runs of one batch request (seed 001 §4.4).
// Its status is derived from its runs, never stored.
type Batch struct {
	ID          string    `json:"id"`
	SiteID      string    `json:"site_id"`
	Kind        RunKind   `json:"kind"`
	ProfileID   string    `json:"profile_id,omitempty"`
	SKU         string    `json:"sku,omitempty"`
	RunIDs      []string  `json:"run_ids"`
	RequestedBy string    `json:"requested_by,omitempty"`
	RequestedAt time.Time `json:"requested_at"`
}

// Submission creates runs (and optionally their batch) in one step. With an
// idempotency key, a repeat of the same request returns the first result;
// the same key with a different request is a conflict.
type Submission struct {
	IdempotencyKey string
	RequestHash    string
	Batch          *Batch
	Runs           []Run
}

// SubmissionResult names what a submission created (or had created).
type SubmissionResult struct {
	BatchID  string   `json:"batch_id,omitempty"`
	RunIDs   []string `json:"run_ids"`
	Replayed bool     `json:"-"`
}
