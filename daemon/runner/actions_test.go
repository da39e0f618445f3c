package runner

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// flakyDef fails its second stage with a hardware mismatch until fixed is
// set, compensates deploys, and adopts when adoptable is set.
type flaky struct {
	fixed, adoptable atomic.Bool
	compensated      atomic.Int32
	firstRuns        atomic.Int32
}

func (f *flaky) def() *Def {
	return &Def{Name: "t", Stages: []StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: func(context.Context, *Context) (Outcome, error) {
			f.firstRuns.Add(1)
			return Done("loaded"), nil
		}},
		{Stage: lifecycle.StageDeployViaMaas, Run: func(ctx context.Context, c *Context) (Outcome, error) {
			c.SetVar("deployed", "yes")
			return Done("deployed"), nil
		}, Compensate: func(ctx context.Context, c *Context) error {
			f.compensated.Add(1)
			return nil
		}},
		{Stage: lifecycle.StageConfigureStorage, Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if !f.fixed.Load() {
				return Outcome{}, Classed(lifecycle.FailHardwareMismatch, errors.New("no BOSS disk"))
			}
			return Done("storage set"), nil
		}},
	}, Adopt: func(ctx context.Context, c *Context) error {
		if !f.adoptable.Load() {
			return errors.New("machine is not Deployed")
		}
		return nil
	}}
}

func (h *harness) act(id string, a lifecycle.Action) (ActionResult, error) {
	return h.runner.Act(context.Background(), ActionRequest{RunID: id, Action: a, Actor: "alice", Role: "operator", Reason: "ticket 42", RequestID: "req-1"})
}

func (h *harness) failedRun(f *flaky) string {
	h.t.Helper()
	id := h.submit("")
	h.waitStatus(id, lifecycle.JobFailedManualIntervention)
	return id
}

func TestRetryStageAndResume(t *testing.T) {
	for _, a := range []lifecycle.Action{lifecycle.ActionRetryStage, lifecycle.ActionResume} {
		t.Run(string(a), func(t *testing.T) {
			f := &flaky{}
			h := newHarness(t, f.def())
			h.start()
			id := h.failedRun(f)
			f.fixed.Store(true)
			res, err := h.act(id, a)
			h.must(err)
			if res.NoOp || res.Run.Status != lifecycle.JobRunning || res.Run.CurrentStage != lifecycle.StageConfigureStorage || res.Run.CurrentAttempt != 2 {
				t.Fatalf("after %s: %+v", a, res.Run)
			}
			h.waitStatus(id, lifecycle.JobCompleted)
			if f.firstRuns.Load() != 1 {
				t.Fatalf("%s re-ran earlier stages", a)
			}
			if _, err := h.act(id, a); lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
				t.Fatalf("%s on a completed run: %v", a, err)
			}
		})
	}
}

func TestRerunStartsFromTheTopKeepingVars(t *testing.T) {
	f := &flaky{}
	h := newHarness(t, f.def())
	h.start()
	id := h.failedRun(f)
	f.fixed.Store(true)
	res, err := h.act(id, lifecycle.ActionRerun)
	h.must(err)
	if res.Run.CurrentStage != lifecycle.StageLoadSiteConfig || res.Run.Vars["deployed"] != "yes" {
		t.Fatalf("rerun: %+v", res.Run)
	}
	h.waitStatus(id, lifecycle.JobCompleted)
	if f.firstRuns.Load() != 2 {
		t.Fatal("rerun must re-enter from the first stage")
	}
}

func TestRestartCleanCompensatesThenStartsAgain(t *testing.T) {
	f := &flaky{}
	h := newHarness(t, f.def())
	h.start()
	id := h.failedRun(f)
	f.fixed.Store(true)
	res, err := h.act(id, lifecycle.ActionRestartClean)
	h.must(err)
	if res.Run.Status != lifecycle.JobCompensating {
		t.Fatalf("restart_clean: %s", res.Run.Status)
	}
	r := h.waitStatus(id, lifecycle.JobCompleted)
	if f.compensated.Load() != 1 || f.firstRuns.Load() != 2 {
		t.Fatalf("compensated %d, first stage runs %d", f.compensated.Load(), f.firstRuns.Load())
	}
	if r.Vars["deployed"] != "yes" || r.Vars[varThen] != "" {
		t.Fatalf("vars after clean restart: %v", r.Vars)
	}
}

func TestCancelCompensatesAndIsIdempotent(t *testing.T) {
	f := &flaky{}
	h := newHarness(t, f.def())
	h.start()
	id := h.failedRun(f)
	_, err := h.act(id, lifecycle.ActionCancel)
	h.must(err)
	h.waitStatus(id, lifecycle.JobCancelled)
	if f.compensated.Load() != 1 {
		t.Fatal("cancel must compensate the deploy")
	}
	res, err := h.act(id, lifecycle.ActionCancel)
	h.must(err)
	if !res.NoOp {
		t.Fatal("a second cancel must be a no-op")
	}
}

func TestCancelPendingRunEndsAtOnce(t *testing.T) {
	var mu sync.Mutex
	var started []string
	h := newHarness(t, gateDef(&started, &mu))
	h.must(h.storeSetParallel(1))
	h.start()
	blocker := h.submit("") // holds the only slot, parked
	h.waitParked(blocker)
	queued := h.submit("")
	h.sync()
	res, err := h.act(queued, lifecycle.ActionCancel)
	h.must(err)
	if res.Run.Status != lifecycle.JobCancelled || res.Run.CompletedAt == nil {
		t.Fatalf("cancel pending: %+v", res.Run)
	}
	h.release(blocker)
	h.waitStatus(blocker, lifecycle.JobCompleted)
	h.sync()
	if st := h.run(queued).Status; st != lifecycle.JobCancelled {
		t.Fatalf("a cancelled queued run was admitted later: %s", st)
	}
}

func TestAdoptAndMarkManual(t *testing.T) {
	f := &flaky{}
	h := newHarness(t, f.def())
	h.start()
	id := h.failedRun(f)
	if _, err := h.act(id, lifecycle.ActionAdoptObservedState); lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Fatalf("adopt with observed state short of the goal: %v", err)
	}
	f.adoptable.Store(true)
	res, err := h.act(id, lifecycle.ActionAdoptObservedState)
	h.must(err)
	if res.Run.Status != lifecycle.JobReconciled || res.Run.FailureClass != "" {
		t.Fatalf("adopt: %+v", res.Run)
	}
	if res, err = h.act(id, lifecycle.ActionAdoptObservedState); err != nil || !res.NoOp {
		t.Fatalf("second adopt: %v noop=%v", err, res.NoOp)
	}

	g := &flaky{}
	h2 := newHarness(t, g.def())
	h2.start()
	id2 := h2.failedRun(g)
	res, err = h2.act(id2, lifecycle.ActionMarkManual)
	if err != nil || !res.NoOp {
		t.Fatalf("freezing a run already in manual intervention: %v %v", err, res.NoOp)
	}
}

func TestActionsAreAudited(t *testing.T) {
	f := &flaky{}
	h := newHarness(t, f.def())
	h.start()
	id := h.failedRun(f)
	f.fixed.Store(true)
	_, err := h.act(id, lifecycle.ActionRetryStage)
	h.must(err)
	h.waitStatus(id, lifecycle.JobCompleted)
	_, err = h.act(id, lifecycle.ActionCancel)
	if lifecycle.ErrorCode(err) != lifecycle.CodeConflict {
		t.Fatalf("cancel a completed run: %v", err)
	}
	entries, err := h.store.ListAudit(context.Background(), lifecycle.AuditFilter{TargetID: id})
	h.must(err)
	if len(entries) != 1 {
		t.Fatalf("want one audit entry (the applied retry), got %+v", entries)
	}
	e := entries[0]
	if e.Actor != "alice" || e.Role != "operator" || e.Reason != "ticket 42" || e.Action != "retry_stage" ||
		e.PriorState != "failed_manual_intervention" || e.PriorStage != "configure_storage" ||
		e.ExpectedTarget != "running" || e.CorrelationIDs["run_id"] != id || e.CorrelationIDs["request_id"] != "req-1" {
		t.Fatalf("audit entry = %+v", e)
	}
}

func TestFreezeInterruptsARunningStage(t *testing.T) {
	var entered atomic.Int32
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageCommissionNode,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			entered.Add(1)
			<-ctx.Done()
			return Outcome{}, ctx.Err()
		}}}})
	h.start()
	id := h.submit("")
	h.eventually("stage entered", func() bool { return entered.Load() == 1 })
	res, err := h.act(id, lifecycle.ActionMarkManual)
	h.must(err)
	if res.Run.Status != lifecycle.JobFailedManualIntervention || res.Run.RecommendedAction != lifecycle.ActionResume {
		t.Fatalf("freeze: %+v", res.Run)
	}
	h.sync()
	if entered.Load() != 1 || h.run(id).Status != lifecycle.JobFailedManualIntervention {
		t.Fatal("a frozen run kept running")
	}
}
