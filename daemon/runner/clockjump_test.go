package runner

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// commissionWait is a waiting stage with the policy's commission timeout
// (40 min): it waits on its first execution and, on later ones, reports
// the machine ready when ready says so.
func commissionWait(execs *counter, ready bool) *Def {
	return &Def{Name: "t", Stages: []StageDef{
		{Stage: lifecycle.StageWaitForReady,
			Timeout: func(p lifecycle.SitePolicy) time.Duration {
				return time.Duration(p.CommissionTimeoutSeconds) * time.Second
			},
			TimeoutClass: lifecycle.FailPXEDiscovery,
			Run: func(ctx context.Context, c *Context) (Outcome, error) {
				if execs.inc(c.Run.ID) > 1 && ready {
					return Done("ready"), nil
				}
				return Wait(time.Time{}, "machine:x"), nil
			}},
		{Stage: lifecycle.StageConfigureStorage, Run: func(ctx context.Context, c *Context) (Outcome, error) {
			execs.inc(c.Run.ID + "/next")
			return Done("named"), nil
		}},
	}}
}

// A forward jump of an hour passes the 40-minute wait's deadline (the
// stored attempt start plus the timeout, against the wall clock): the
// stage looks once more and then fails in its timeout class, or moves on
// when the machine got there meanwhile; nothing runs twice.
func TestClockJumpForwardHourTimesOutWaitAfterOneInspectionWithoutRepeatingWork(t *testing.T) {
	for _, ready := range []bool{false, true} {
		var execs counter
		h := newHarness(t, commissionWait(&execs, ready))
		h.start()
		id := h.submit("")
		h.waitParked(id)
		h.clock.Advance(time.Hour)
		if !ready {
			r := h.waitStatus(id, lifecycle.JobFailedManualIntervention)
			if r.FailureClass != lifecycle.FailPXEDiscovery || execs.get(id) != 2 || execs.get(id+"/next") != 0 {
				t.Fatalf("after the jump: class %s, wait ran %d times, next stage %d", r.FailureClass, execs.get(id), execs.get(id+"/next"))
			}
			continue
		}
		h.waitStatus(id, lifecycle.JobCompleted)
		if execs.get(id) != 2 || execs.get(id+"/next") != 1 {
			t.Fatalf("machine ready at the jump: wait ran %d times, next stage %d; want 2 and 1", execs.get(id), execs.get(id+"/next"))
		}
	}
}

// A backward jump of an hour moves the wall clock away from the wait's
// deadline: the wait is not cut short, and it times out once the wall
// clock reaches the stored deadline (an hour later than without the jump).
func TestClockJumpBackwardHourNeverCutsWaitShortAndTimesOutAtStoredDeadline(t *testing.T) {
	var execs counter
	h := newHarness(t, commissionWait(&execs, false))
	h.start()
	id := h.submit("")
	deadline := h.waitParked(id).WaitUntil
	h.clock.Advance(-time.Hour)
	h.clock.Advance(time.Hour + 39*time.Minute)
	h.sync()
	if r := h.run(id); r.Status != lifecycle.JobRunning || execs.get(id) != 1 {
		t.Fatalf("a minute before the stored deadline %v: %s after %d executions", deadline, r.Status, execs.get(id))
	}
	h.clock.Advance(2 * time.Minute)
	r := h.waitStatus(id, lifecycle.JobFailedManualIntervention)
	if r.FailureClass != lifecycle.FailPXEDiscovery || execs.get(id) != 2 {
		t.Fatalf("past the stored deadline: class %s after %d executions", r.FailureClass, execs.get(id))
	}
}
