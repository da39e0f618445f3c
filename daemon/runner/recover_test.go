package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestRestartReentersTheRecordedStage(t *testing.T) {
	var deploys, calls atomic.Int32
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: ok("loaded")},
		{Stage: lifecycle.StageDeployViaMaas, Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if calls.Add(1) == 1 {
				<-ctx.Done() // the daemon dies mid-stage
				return Outcome{}, ctx.Err()
			}
			// Re-entry adopts: the deploy was already issued before the crash.
			if c.Var("deploy_issued") == "" {
				deploys.Add(1)
			}
			return Done("deploying"), nil
		}},
	}})
	h.start()
	id := h.submit("")
	h.eventually("deploy stage entered", func() bool { return calls.Load() == 1 })
	h.stop()
	r := h.run(id)
	if r.Status != lifecycle.JobRunning || r.CurrentStage != lifecycle.StageDeployViaMaas || r.StageStartedAt == nil {
		t.Fatalf("journal after crash: %+v", r)
	}
	_, err := h.store.UpdateRun(context.Background(), h.fence(), id, func(x *lifecycle.Run) error {
		setVar(x, "deploy_issued", "yes") // what the real stage records before it calls MAAS
		return nil
	})
	h.must(err)

	h.start()
	r = h.waitStatus(id, lifecycle.JobCompleted)
	want := []string{"load_site_config#1:started", "load_site_config#1:succeeded", "deploy_via_maas#1:started",
		"deploy_via_maas#1:started", "deploy_via_maas#1:succeeded"}
	if diff := cmp.Diff(want, h.events(id)); diff != "" {
		t.Fatalf("history (-want +got):\n%s", diff)
	}
	evs, _ := h.store.ListRunEvents(context.Background(), id, 3, 1)
	if evs[0].Message != "re-entered after restart" || deploys.Load() != 0 {
		t.Fatalf("re-entry: %+v, deploys %d", evs[0], deploys.Load())
	}
}

func TestParkedRunsSurviveRestartAndQueueKeepsOrder(t *testing.T) {
	var execs counter
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageWaitForReady,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if execs.inc(c.Run.ID) > 1 && c.Now().After(t0.Add(10*time.Minute)) {
				return Done("ready"), nil
			}
			return Wait(c.Now().Add(10*time.Minute), "machine:"+c.Run.Hostname), nil
		}}}})
	h.must(h.storeSetParallel(1))
	h.start()
	a, b := h.submit(""), h.submit("")
	h.waitParked(a)
	h.stop()
	if h.run(b).Status != lifecycle.JobPending {
		t.Fatal("the second run must still be queued")
	}
	h.start()
	h.eventually("re-check after restart", func() bool { return execs.get(a) == 2 })
	h.waitParked(a)
	if h.run(b).Status != lifecycle.JobPending {
		t.Fatal("a restart must not admit past the cap")
	}
	h.clock.Advance(11 * time.Minute)
	h.waitStatus(a, lifecycle.JobCompleted)
	h.waitParked(b)
}

func TestLostLeaseStopsWrites(t *testing.T) {
	var execs counter
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageWaitForReady,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			execs.inc(c.Run.ID)
			return Wait(time.Time{}, "machine:x"), nil
		}}}})
	h.start()
	id := h.submit("")
	h.waitParked(id)
	// Another daemon takes the site after this one's lease lapsed (a
	// stalled process: its renewals did not happen).
	h.must(h.store.ReleaseLease(context.Background(), mustLease(h)))
	other, err := h.store.ClaimLease(context.Background(), "site-1", "daemon-b", time.Hour)
	h.must(err)
	before := h.events(id)
	h.runner.Wake("machine:x")
	h.eventually("site dropped", func() bool {
		var gone bool
		h.must(h.runner.call(context.Background(), func() { gone = h.runner.sites["site-1"] == nil }))
		return gone
	})
	if diff := cmp.Diff(before, h.events(id)); diff != "" {
		t.Fatalf("a runner without the lease wrote to the journal:\n%s", diff)
	}
	if cur, _ := h.store.GetLease(context.Background(), "site-1"); cur.Epoch != other.Epoch {
		t.Fatal("the new holder's lease was disturbed")
	}
}

func mustLease(h *harness) lifecycle.Lease {
	l, err := h.store.GetLease(context.Background(), "site-1")
	h.must(err)
	return l
}

// A change that happened while no daemon ran (its wake went nowhere) is
// seen at restart: waiting stages are re-entered and re-read their state.
func TestRestartRechecksWaitingStages(t *testing.T) {
	var ready atomic.Bool
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageWaitForAgentEnrollment,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if ready.Load() {
				return Done("enrolled"), nil
			}
			return Wait(time.Time{}, "node:n1"), nil
		}}}})
	h.start()
	id := h.submit("")
	h.waitParked(id)
	h.stop()
	ready.Store(true) // the agent enrolled while the daemon was down
	h.start()
	h.waitStatus(id, lifecycle.JobCompleted)
}
