package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestOutageIsWaitedOutPastTheAttemptBoundAndWokenWhenUpstreamAnswers:
// a stage that fails as upstream_transient more than the class's five
// attempts, within the runner's patience (30s in the harness), stays
// running and parked on the site's upstream key; a wake of that key
// runs it at once, long before its backoff, and it completes with the
// outage mark cleared.
func TestOutageIsWaitedOutPastTheAttemptBoundAndWokenWhenUpstreamAnswers(t *testing.T) {
	var execs counter
	var down atomic.Bool
	down.Store(true)
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageCommissionNode,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if execs.inc(c.Run.ID); down.Load() {
				return Outcome{}, errMaasDown
			}
			return Done("commissioning"), nil
		}}}})
	h.start()
	id := h.submit("")
	for i := 1; i <= 5; i++ {
		h.eventually("retry parked", func() bool { return h.run(id).CurrentAttempt == i+1 && h.parked(id) })
		h.clock.Advance(h.run(id).WaitUntil.Sub(h.clock.Now()))
	}
	h.eventually("attempt 7 parked", func() bool { return h.run(id).CurrentAttempt == 7 && h.parked(id) })
	r := h.run(id)
	if r.Status != lifecycle.JobRunning || r.FailureClass != lifecycle.FailUpstreamTransient ||
		len(r.WaitKeys) != 1 || r.WaitKeys[0] != lifecycle.UpstreamKey("site-1") {
		t.Fatalf("after 6 failures within the patience: %s/%s waiting on %v; want running, parked on the upstream key", r.Status, r.FailureClass, r.WaitKeys)
	}
	if since, err := time.Parse(time.RFC3339Nano, r.Vars[outageVar(lifecycle.StageCommissionNode)]); err != nil || since.Sub(t0) > time.Second {
		t.Fatalf("outage start %q, want the first failure's time", r.Vars[outageVar(lifecycle.StageCommissionNode)])
	}
	down.Store(false)
	h.runner.Wake(lifecycle.UpstreamKey("site-1"))
	h.sync()
	h.clock.Advance(upstreamWakeSpacing) // one run woken: within one spacing
	r = h.waitStatus(id, lifecycle.JobCompleted)
	if execs.get(id) != 7 || r.Vars[outageVar(lifecycle.StageCommissionNode)] != "" {
		t.Fatalf("%d executions, outage mark %q; want 7 (no wait for the backoff) and none", execs.get(id), r.Vars[outageVar(lifecycle.StageCommissionNode)])
	}
}

// TestOutageLongerThanPatienceLandsInFailedRetryable: once the stage has
// failed as upstream_transient for the patience and its attempts are
// spent, the run lands in failed_retryable as documented.
func TestOutageLongerThanPatienceLandsInFailedRetryable(t *testing.T) {
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageCommissionNode,
		Run: func(ctx context.Context, c *Context) (Outcome, error) { return Outcome{}, errMaasDown }}}})
	h.start()
	id := h.submit("")
	for k := 2; h.run(id).Status != lifecycle.JobFailedRetryable; k++ {
		h.eventually("retry parked or failed", func() bool {
			r := h.run(id)
			return r.Status == lifecycle.JobFailedRetryable || r.CurrentAttempt == k && h.parked(id)
		})
		if r := h.run(id); r.Status != lifecycle.JobFailedRetryable {
			h.clock.Advance(r.WaitUntil.Sub(h.clock.Now()))
		}
		if k > 20 {
			t.Fatalf("still %s after %d attempts", h.run(id).Status, k)
		}
	}
	if waited := h.clock.Since(t0); waited < 30*time.Second {
		t.Fatalf("failed_retryable after %s, within the 30s patience", waited)
	}
	r := h.run(id)
	if r.Status != lifecycle.JobFailedRetryable || r.FailureClass != lifecycle.FailUpstreamTransient || r.CurrentAttempt < 5 {
		t.Fatalf("after the patience: %s/%s at attempt %d; want failed_retryable/upstream_transient", r.Status, r.FailureClass, r.CurrentAttempt)
	}
	if r.Vars[outageVar(lifecycle.StageCommissionNode)] != "" {
		t.Fatal("the outage mark outlived the failure")
	}
}

// TestOutageEndingForgetsItsMarkAndAttempts: a waiting stage that rode
// out an outage past its attempt bound and went back to waiting has the
// outage forgotten: its mark is cleared and the attempts spent in the
// outage no longer count, so one failure long after (past the patience)
// is retried, not failed at once.
func TestOutageEndingForgetsItsMarkAndAttempts(t *testing.T) {
	var down atomic.Bool
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageWaitForDeployed,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if down.Load() {
				return Outcome{}, errMaasDown
			}
			return Wait(c.Now().Add(time.Minute)), nil
		}}}})
	h.start()
	id := h.submit("")
	h.waitParked(id)
	down.Store(true)
	h.clock.Advance(time.Minute)
	for i := 1; i <= 6; i++ { // past the class's 5 attempts, within the 30s patience
		h.eventually("retry parked", func() bool { return h.run(id).CurrentAttempt == i+1 && h.parked(id) })
		h.clock.Advance(h.run(id).WaitUntil.Sub(h.clock.Now()))
	}
	down.Store(false)
	h.eventually("waiting again", func() bool { r := h.run(id); return len(r.WaitKeys) == 0 && r.CurrentAttempt == 7 && h.parked(id) })
	st := lifecycle.StageWaitForDeployed
	if r := h.run(id); r.Vars[outageVar(st)] != "" || r.Status != lifecycle.JobRunning {
		t.Fatalf("after the outage: %s, outage mark %q; want running and no mark", r.Status, r.Vars[outageVar(st)])
	} else if base := attemptBase(r, st); base != 6 {
		t.Fatalf("attempt base %d after the outage, want 6: attempts 1 to 6 failed in it and count no more", base)
	}
	h.clock.Advance(40 * time.Minute) // many polls later, far past the patience
	h.waitParked(id)
	down.Store(true)
	h.clock.Advance(h.run(id).WaitUntil.Sub(h.clock.Now()))
	h.eventually("retry parked", func() bool { return h.run(id).CurrentAttempt == 8 && h.parked(id) })
	if r := h.run(id); r.Status != lifecycle.JobRunning || r.FailureClass != lifecycle.FailUpstreamTransient {
		t.Fatalf("one failure after the outage ended: %s/%s; want running, retried", r.Status, r.FailureClass)
	}
}

// TestUpstreamWakeSpreadsTheRunsItWakes: the runs parked on a site's
// upstream key are not all resumed the moment MAAS answers again but
// spread at random (here evenly) over upstreamWakeSpacing each: none at
// once, half within the first half of the spread, all by its end.
func TestUpstreamWakeSpreadsTheRunsItWakes(t *testing.T) {
	var execs counter
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageCommissionNode,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if execs.inc(c.Run.ID) == 1 {
				return Wait(c.Now().Add(time.Hour), lifecycle.UpstreamKey("site-1")), nil
			}
			return Done("commissioning"), nil
		}}}})
	const n = 8            // within the site's concurrency
	var draws atomic.Int64 // jitter (k+0.5)/n for the k-th run woken
	h.build()
	h.runner.opt.Jitter = func() float64 { return (float64((draws.Add(1)-1)%n) + 0.5) / n }
	h.runBuilt()
	var ids []string
	for range n {
		ids = append(ids, h.submit(""))
	}
	for _, id := range ids {
		h.waitParked(id)
	}
	resumed := func() (k int) {
		for _, id := range ids {
			if execs.get(id) == 2 {
				k++
			}
		}
		return k
	}
	h.runner.Wake(lifecycle.UpstreamKey("site-1"))
	h.sync()
	time.Sleep(20 * time.Millisecond)
	if k := resumed(); k != 0 {
		t.Fatalf("%d of %d runs resumed the moment the upstream answered, want them spread", k, n)
	}
	spread := n * upstreamWakeSpacing
	h.clock.Advance(spread / 2)
	h.eventually("half resumed", func() bool { return resumed() == n/2 })
	time.Sleep(20 * time.Millisecond)
	if k := resumed(); k != n/2 {
		t.Fatalf("%d of %d runs resumed within half the spread, want half", k, n)
	}
	h.clock.Advance(spread / 2)
	for _, id := range ids {
		h.waitStatus(id, lifecycle.JobCompleted)
	}
}
