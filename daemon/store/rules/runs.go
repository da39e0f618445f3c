package rules

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ValidateNewRun checks a run about to be created: an id, a site, a known
// kind and the pending status (invalid otherwise).
func ValidateNewRun(op string, r lifecycle.Run) error {
	switch {
	case r.ID == "":
		return lifecycle.Invalid(op, "id", "run id is required")
	case r.SiteID == "":
		return lifecycle.Invalid(op, "site_id", "site_id is required")
	case r.Kind != lifecycle.RunOnboarding && r.Kind != lifecycle.RunDecommission && r.Kind != lifecycle.RunRepair:
		return lifecycle.Invalid(op, "kind", "kind %q is not onboarding, decommission or repair", r.Kind)
	case r.Status != lifecycle.JobPending:
		return lifecycle.Invalid(op, "status", "a new run is pending, not %q", r.Status)
	}
	return nil
}

// ValidateSubmission checks a submission: at least one run, each valid as
// ValidateNewRun has it (invalid otherwise).
func ValidateSubmission(op string, sub lifecycle.Submission) error {
	if len(sub.Runs) == 0 {
		return lifecycle.Invalid(op, "runs", "a submission needs at least one run")
	}
	for _, r := range sub.Runs {
		if err := ValidateNewRun(op, r); err != nil {
			return err
		}
	}
	return nil
}

// StampNewRun returns r as created at now: requested now unless the caller
// set a time, updated now.
func StampNewRun(r lifecycle.Run, now time.Time) lifecycle.Run {
	if r.RequestedAt.IsZero() {
		r.RequestedAt = now
	}
	r.UpdatedAt = now
	return r
}

// RunInFence checks that run r belongs to the site of fence f (conflict
// otherwise).
func RunInFence(op string, f lifecycle.Fence, r lifecycle.Run) error {
	if r.SiteID != f.SiteID {
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "run %s belongs to site %s, not the fenced site %s", r.ID, r.SiteID, f.SiteID)
	}
	return nil
}

// AdvanceRun applies fn to a copy of old and checks the result: the id,
// kind and site cannot change (invalid) and the status may only make a
// move lifecycle.CheckJobMove allows. It returns the run to write, with
// its request time kept and updated at now.
func AdvanceRun(op string, old lifecycle.Run, fn func(*lifecycle.Run) error, now time.Time) (lifecycle.Run, error) {
	r := old
	if err := fn(&r); err != nil {
		return lifecycle.Run{}, err
	}
	if r.ID != old.ID || r.Kind != old.Kind || r.SiteID != old.SiteID {
		return lifecycle.Run{}, lifecycle.Invalid(op, "id", "a run's id, kind and site cannot change")
	}
	if err := lifecycle.CheckJobMove(old.Status, r.Status); err != nil {
		return lifecycle.Run{}, err
	}
	r.RequestedAt, r.UpdatedAt = old.RequestedAt, now
	return r, nil
}

// RunMatches reports whether r passes filter f.
func RunMatches(f lifecycle.RunFilter, r lifecycle.Run) bool {
	if (f.SiteID != "" && f.SiteID != r.SiteID) || (f.BatchID != "" && f.BatchID != r.BatchID) ||
		(f.NodeID != "" && f.NodeID != r.NodeID) || (f.Kind != "" && f.Kind != r.Kind) ||
		(f.Mode != "" && f.Mode != r.Mode) {
		return false
	}
	return len(f.Statuses) == 0 || slices.Contains(f.Statuses, r.Status)
}

// SortRuns orders runs by request time, by ID among equals.
func SortRuns(runs []lifecycle.Run) {
	slices.SortFunc(runs, func(a, b lifecycle.Run) int {
		return cmp.Or(a.RequestedAt.Compare(b.RequestedAt), strings.Compare(a.ID, b.ID))
	})
}
