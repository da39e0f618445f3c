package lifecycle

// BatchSummary is a batch's aggregate status, derived from its runs (seed
// 001 §4.4): counts per job state and one overall status.
type BatchSummary struct {
	Total  int              `json:"total"`
	Counts map[JobState]int `json:"counts"`
	// Status is running while any run is pending, running or compensating;
	// then failed when any run waits for an operator; then completed when
	// every run completed or was reconciled; else cancelled.
	Status string `json:"status"`
}

// SummarizeRuns aggregates the runs of one batch.
func SummarizeRuns(runs []Run) BatchSummary {
	s := BatchSummary{Total: len(runs), Counts: map[JobState]int{}}
	for _, r := range runs {
		s.Counts[r.Status]++
	}
	c := s.Counts
	switch {
	case c[JobPending]+c[JobRunning]+c[JobCompensating] > 0:
		s.Status = "running"
	case c[JobFailedRetryable]+c[JobFailedManualIntervention] > 0:
		s.Status = "failed"
	case c[JobCompleted]+c[JobReconciled] == len(runs):
		s.Status = "completed"
	default:
		s.Status = "cancelled"
	}
	return s
}
