package repair

import (
	"context"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Store is what starting a repair run reads and writes (every
// lifecycle.Store has it).
type Store interface {
	GetNode(ctx context.Context, id string) (lifecycle.Node, error)
	UpdateNode(ctx context.Context, id string, fn func(*lifecycle.Node) error) (lifecycle.Node, error)
	ListRuns(ctx context.Context, f lifecycle.RunFilter) ([]lifecycle.Run, error)
	Submit(ctx context.Context, s lifecycle.Submission) (lifecycle.SubmissionResult, error)
	RecordPartEvents(ctx context.Context, evs ...lifecycle.PartEvent) error
}

// Runner takes a pending run the store created (daemon/runner).
type Runner interface{ Submit(runID string) }

// Starter starts repair runs: the admin API's, and the seam through
// which a health verdict or a fault report that quarantined a node asks
// for its repair ("start a repair run for node N with reason R").
type Starter struct {
	Store  Store
	Runner Runner
	// NewID returns a fresh run id (injected randomness).
	NewID func() (string, error)
	Clock clockwork.Clock
}

// Started is a started (or already running) repair run.
type Started struct {
	Run lifecycle.Run
	// Existing: the node's unfinished repair run was returned, none started.
	Existing bool
}

var inFlight = []lifecycle.JobState{lifecycle.JobPending, lifecycle.JobRunning, lifecycle.JobFailedRetryable,
	lifecycle.JobFailedManualIntervention, lifecycle.JobCompensating}

// Start starts the repair run of node nodeID for reason, requested by
// actor: diagnostics of a quarantined node, the acceptance check of a
// repair_required one. A node whose repair run is unfinished gets that
// run back (Existing), so a repeated report starts one run. Errors:
// not_found for the node, invalid without a reason, conflict for a node
// in another state or held by another kind of run.
func (s Starter) Start(ctx context.Context, nodeID, reason, actor string) (Started, error) {
	n, err := s.Store.GetNode(ctx, nodeID)
	if err != nil {
		return Started{}, err
	}
	if r, ok, err := s.live(ctx, n.ID); err != nil || ok {
		return Started{Run: r, Existing: ok}, err
	}
	id, err := s.NewID()
	if err != nil {
		return Started{}, lifecycle.Wrap(lifecycle.CodeInternal, "repair.Start", err)
	}
	run, err := lifecycle.NewRepairRun(id, n, reason, actor, s.Clock.Now().UTC())
	if err != nil {
		return Started{}, err
	}
	return s.submit(ctx, run)
}

// live is the node's unfinished repair run; conflict when another kind
// of run holds the node.
func (s Starter) live(ctx context.Context, nodeID string) (lifecycle.Run, bool, error) {
	runs, err := s.Store.ListRuns(ctx, lifecycle.RunFilter{NodeID: nodeID, Statuses: inFlight})
	if err != nil {
		return lifecycle.Run{}, false, err
	}
	if len(runs) == 0 {
		return lifecycle.Run{}, false, nil
	}
	if r := runs[0]; r.Kind != lifecycle.RunRepair {
		return lifecycle.Run{}, false, lifecycle.Errorf(lifecycle.CodeConflict, "repair.Start",
			"node %s is already in %s run %s, which is %s", nodeID, r.Kind, r.ID, r.Status)
	}
	return runs[0], true, nil
}

func (s Starter) submit(ctx context.Context, run lifecycle.Run) (Started, error) {
	res, err := s.Store.Submit(ctx, lifecycle.Submission{Runs: []lifecycle.Run{run}})
	if err != nil {
		return Started{}, err
	}
	s.Runner.Submit(res.RunIDs[0])
	return Started{Run: run}, nil
}
