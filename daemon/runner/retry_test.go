package runner

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var errMaasDown = lifecycle.Wrap(lifecycle.CodeUnavailable, "maas: version", errors.New("connection refused"))

func TestTransientErrorsRetryWithBackoffThenSucceed(t *testing.T) {
	var execs counter
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageCommissionNode,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if execs.inc(c.Run.ID) < 3 {
				return Outcome{}, errMaasDown
			}
			return Done("commissioning"), nil
		}}}})
	h.start()
	id := h.submit("")
	r := h.waitParked(id)
	if r.CurrentAttempt != 2 || r.FailureClass != lifecycle.FailUpstreamTransient || r.Status != lifecycle.JobRunning {
		t.Fatalf("after first failure: %+v", r)
	}
	if d := r.WaitUntil.Sub(h.clock.Now()); d < 500*time.Millisecond || d > time.Second {
		t.Fatalf("first backoff %v, want within [0.5s, 1s]", d)
	}
	h.clock.Advance(1200 * time.Millisecond)
	h.eventually("attempt 3 parked", func() bool { return h.run(id).CurrentAttempt == 3 && h.parked(id) })
	r = h.run(id)
	if d := r.WaitUntil.Sub(h.clock.Now()); d < time.Second || d > 2*time.Second {
		t.Fatalf("second backoff %v, want within [1s, 2s] (doubling)", d)
	}
	h.clock.Advance(2500 * time.Millisecond)
	r = h.waitStatus(id, lifecycle.JobCompleted)
	want := []string{"commission_node#1:started", "commission_node#1:failed", "commission_node#2:started",
		"commission_node#2:failed", "commission_node#3:started", "commission_node#3:succeeded"}
	if diff := cmp.Diff(want, h.events(id)); diff != "" {
		t.Fatalf("history (-want +got):\n%s", diff)
	}
	if r.FailureClass != "" || r.ErrorMessage != "" {
		t.Fatal("a stage that finally succeeds must clear the failure fields")
	}
}

func TestFailureClassesLandInTheirJobState(t *testing.T) {
	cases := []struct {
		name   string
		err    error
		class  lifecycle.FailureClass
		state  lifecycle.JobState
		action lifecycle.Action
		tries  int
	}{
		{"transient exhausted", errMaasDown, lifecycle.FailUpstreamTransient, lifecycle.JobFailedRetryable, lifecycle.ActionResume, 5},
		{"hardware mismatch", Classed(lifecycle.FailHardwareMismatch, errors.New("no BOSS disk")), lifecycle.FailHardwareMismatch, lifecycle.JobFailedManualIntervention, lifecycle.ActionRetryStage, 1},
		{"ambiguity", Classed(lifecycle.FailStateAmbiguity, errors.New("two New machines")), lifecycle.FailStateAmbiguity, lifecycle.JobFailedManualIntervention, lifecycle.ActionAdoptObservedState, 1},
		{"stage default class", errors.New("interface eno8303 has no subnet"), lifecycle.FailPXEDiscovery, lifecycle.JobFailedManualIntervention, lifecycle.ActionRetryStage, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var execs counter
			h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageEnsurePXEInterfaceAuto, Class: lifecycle.FailPXEDiscovery,
				Run: func(ctx context.Context, cx *Context) (Outcome, error) {
					execs.inc(cx.Run.ID)
					cx.Detail("interface", "eno8303")
					return Outcome{}, c.err
				}}}})
			h.start()
			id := h.submit("")
			for i := 1; i < c.tries; i++ {
				h.eventually("retry parked", func() bool { return h.run(id).CurrentAttempt == i+1 && h.parked(id) })
				h.clock.Advance(10 * time.Second)
			}
			r := h.waitStatus(id, c.state)
			if r.FailureClass != c.class || r.RecommendedAction != c.action || execs.get(id) != c.tries {
				t.Fatalf("run = class %s action %s after %d tries", r.FailureClass, r.RecommendedAction, execs.get(id))
			}
			if r.ErrorMessage == "" || r.ErrorDetails["interface"] != "eno8303" || r.WaitUntil != nil {
				t.Fatalf("read model lacks diagnostics: %+v", r)
			}
		})
	}
}

func TestWaitTimeoutInspectsOnceMoreThenFails(t *testing.T) {
	var execs counter
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageWaitForDeployed,
		Timeout:      func(p lifecycle.SitePolicy) time.Duration { return time.Duration(p.DeployTimeoutSeconds) * time.Second },
		TimeoutClass: lifecycle.FailHardwareMismatch,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			execs.inc(c.Run.ID)
			return Wait(time.Time{}, "machine:x"), nil
		}}}})
	h.start()
	id := h.submit("")
	r := h.waitParked(id)
	if want := t0.Add(3600 * time.Second); r.WaitUntil.Sub(want) > time.Second || want.Sub(*r.WaitUntil) > time.Second {
		t.Fatalf("parked until %v, want the policy deploy timeout", r.WaitUntil)
	}
	h.clock.Advance(3601 * time.Second)
	r = h.waitStatus(id, lifecycle.JobFailedManualIntervention)
	if execs.get(id) != 2 || r.FailureClass != lifecycle.FailHardwareMismatch {
		t.Fatalf("execs=%d class=%s msg=%q", execs.get(id), r.FailureClass, r.ErrorMessage)
	}
}

// Runs that fail together must not retry together. The harness leaves
// Options.Jitter unset, so this is the production default: the first
// delay is drawn from [Backoff/2, Backoff) and differs between runs.
func TestRetryDelaysAreJitteredByDefault(t *testing.T) {
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageCommissionNode,
		Run: func(ctx context.Context, c *Context) (Outcome, error) { return Outcome{}, errMaasDown }}}})
	h.must(h.storeSetParallel(50))
	h.start()
	ids := make([]string, 20)
	for i := range ids {
		ids[i] = h.create("") // moves the fake clock: create all first
	}
	for _, id := range ids {
		h.runner.Submit(id)
	}
	seen := map[time.Duration]bool{}
	for _, id := range ids {
		r := h.waitParked(id)
		d := r.WaitUntil.Sub(h.clock.Now())
		if d < 500*time.Millisecond || d >= time.Second {
			t.Errorf("run %s: first retry in %v, want within [0.5s, 1s)", id, d)
		}
		seen[d] = true
	}
	if len(seen) < 2 {
		t.Fatalf("%d runs that failed together all retry after the same delay %v", len(ids), seen)
	}
}
