package rules

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestAdvanceRun(t *testing.T) {
	asked := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	now := asked.Add(time.Hour)
	old := lifecycle.Run{ID: "r", SiteID: "s", Kind: lifecycle.RunOnboarding, Status: lifecycle.JobPending, RequestedAt: asked}
	boom := errors.New("boom")
	tests := []struct {
		name string
		fn   func(*lifecycle.Run)
		err  error
		code lifecycle.Code
	}{
		{"a legal move", func(r *lifecycle.Run) { r.Status = lifecycle.JobRunning }, nil, ""},
		{"the request time stays", func(r *lifecycle.Run) { r.RequestedAt = now }, nil, ""},
		{"an illegal move", func(r *lifecycle.Run) { r.Status = lifecycle.JobCompleted }, nil, lifecycle.CodeConflict},
		{"the id changes", func(r *lifecycle.Run) { r.ID = "q" }, nil, lifecycle.CodeInvalid},
		{"the kind changes", func(r *lifecycle.Run) { r.Kind = lifecycle.RunDecommission }, nil, lifecycle.CodeInvalid},
		{"the site changes", func(r *lifecycle.Run) { r.SiteID = "t" }, nil, lifecycle.CodeInvalid},
		{"the caller refuses", func(*lifecycle.Run) {}, boom, lifecycle.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AdvanceRun("op", old, func(r *lifecycle.Run) error { tt.fn(r); return tt.err }, now)
			if code := lifecycle.ErrorCode(err); code != tt.code {
				t.Fatalf("code %q, want %q (err %v)", code, tt.code, err)
			}
			if err == nil && (!got.RequestedAt.Equal(asked) || !got.UpdatedAt.Equal(now)) {
				t.Errorf("requested %v updated %v, want %v %v", got.RequestedAt, got.UpdatedAt, asked, now)
			}
		})
	}
}

func TestRunListing(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	runs := []lifecycle.Run{
		{ID: "c", SiteID: "s", Status: lifecycle.JobRunning, RequestedAt: at},
		{ID: "b", SiteID: "s", Status: lifecycle.JobPending, RequestedAt: at},
		{ID: "a", SiteID: "t", Status: lifecycle.JobRunning, RequestedAt: at.Add(time.Second)},
	}
	SortRuns(runs)
	var ids []string
	for _, r := range runs {
		if RunMatches(lifecycle.RunFilter{SiteID: "s", Statuses: []lifecycle.JobState{lifecycle.JobPending, lifecycle.JobRunning}}, r) {
			ids = append(ids, r.ID)
		}
	}
	if want := []string{"b", "c"}; !slices.Equal(ids, want) {
		t.Errorf("listed %v, want %v (oldest first, by id among equals, site s only)", ids, want)
	}
}
