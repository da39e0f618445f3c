package lifecycle

import "testing"

func TestSummarizeRuns(t *testing.T) {
	runs := func(states ...JobState) []Run {
		var out []Run
		for _, s := range states {
			out = append(out, Run{Status: s})
		}
		return out
	}
	cases := []struct {
		runs   []Run
		status string
	}{
		{runs(JobCompleted, JobRunning, JobFailedManualIntervention), "running"},
		{runs(JobCompleted, JobFailedRetryable, JobCancelled), "failed"},
		{runs(JobCompleted, JobReconciled), "completed"},
		{runs(JobCompleted, JobCancelled), "cancelled"},
		{runs(JobPending), "running"},
	}
	for _, c := range cases {
		s := SummarizeRuns(c.runs)
		if s.Status != c.status || s.Total != len(c.runs) {
			t.Errorf("%v: %+v, want %s", c.runs, s, c.status)
		}
	}
	if s := SummarizeRuns(runs(JobCompleted, JobCompleted, JobRunning)); s.Counts[JobCompleted] != 2 || s.Counts[JobRunning] != 1 {
		t.Errorf("counts = %v", s.Counts)
	}
}
