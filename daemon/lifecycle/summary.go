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
	c := map[JobState]int{}
	for _, r := range runs {
		c[r.Status]++
	}
	return SummarizeCounts(c)
}

// SummarizeCounts aggregates a batch from its runs counted by job state.
func SummarizeCounts(counts map[JobState]int) BatchSummary {
	s := BatchSummary{Counts: map[JobState]int{}}
	for st, n := range counts {
		if n > 0 {
			s.Counts[st] = n
			s.Total += n
		}
	}
	c := s.Counts
	switch {
	case c[JobPending]+c[JobRunning]+c[JobCompensating] > 0:
		s.Status = "running"
	case c[JobFailedRetryable]+c[JobFailedManualIntervention] > 0:
		s.Status = "failed"
	case c[JobCompleted]+c[JobReconciled] == s.Total:
		s.Status = "completed"
	default:
		s.Status = "cancelled"
	}
	return s
}
