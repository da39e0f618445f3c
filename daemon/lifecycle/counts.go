package lifecycle

// NodeCount is how many nodes of one site are in one state: a line of
// NodeStore.CountNodes, which reads the store's node indexes, not the
// node records.
type NodeCount struct {
	SiteID string    `json:"site_id"`
	Status NodeState `json:"status"`
	Count  int       `json:"count"`
}

// BatchFilter selects batches; zero fields match everything. Limit > 0
// asks for one page: at most Limit batches in id order after the batch
// id After (from the first when empty); Limit 0 returns every match.
type BatchFilter struct {
	SiteID string
	After  string
	Limit  int
}

// BatchCounts is a batch and how many of its runs are in each job state.
type BatchCounts struct {
	Batch  Batch
	Counts map[JobState]int
}

// Summary is the batch's aggregate status (seed 001 §4.4) from its counts.
func (b BatchCounts) Summary() BatchSummary { return SummarizeCounts(b.Counts) }
