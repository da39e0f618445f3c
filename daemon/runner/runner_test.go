package runner

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestRunCompletesAndRecordsBeforeActing(t *testing.T) {
	var h *harness
	var seen []string
	check := func(ctx context.Context, c *Context) (Outcome, error) {
		// Record before acting: this attempt's start is durable already.
		evs := h.events(c.Run.ID)
		seen = append(seen, evs[len(evs)-1])
		c.SetVar("boss_disk_id", "7")
		return Done("ok"), nil
	}
	h = newHarness(t, &Def{Name: "t", Stages: []StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: check},
		{Stage: lifecycle.StageClassifyDeployFailure, Run: check, Conditional: true},
		{Stage: lifecycle.StageResolvePowerCredentials, Run: check},
	}})
	h.start()
	id := h.submit("10.0.0.1")
	r := h.waitStatus(id, lifecycle.JobCompleted)
	want := []string{
		"load_site_config#1:started", "load_site_config#1:succeeded",
		"resolve_power_credentials#1:started", "resolve_power_credentials#1:succeeded",
	}
	if diff := cmp.Diff(want, h.events(id)); diff != "" {
		t.Fatalf("history (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"load_site_config#1:started", "resolve_power_credentials#1:started"}, seen); diff != "" {
		t.Fatalf("start not journaled before the stage ran:\n%s", diff)
	}
	if r.Vars["boss_disk_id"] != "7" || r.CompletedAt == nil || r.StartedAt == nil {
		t.Fatalf("run = %+v", r)
	}
}

func TestParkedRunsWakeOnlyOnKeysAndHoldNoGoroutine(t *testing.T) {
	var execs counter
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageWaitForReady,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if execs.inc(c.Run.ID) >= 3 {
				return Done("ready"), nil
			}
			return Wait(time.Time{}, "machine:"+c.Run.Hostname), nil
		}}}})
	h.must(h.storeSetParallel(500))
	h.start()
	base := runtime.NumGoroutine()
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = h.submit("")
	}
	for _, id := range ids {
		h.waitParked(id)
	}
	if g := runtime.NumGoroutine(); g > base+10 {
		t.Fatalf("%d goroutines for 200 parked runs (base %d): parked runs must hold none", g, base)
	}
	h.clock.Advance(30 * time.Minute) // no polling: time alone does nothing before the deadline
	h.sync()
	if n := execs.get(ids[0]); n != 1 {
		t.Fatalf("parked run executed %d times without a wake", n)
	}
	h.runner.Wake("machine:h" + ids[0])
	h.eventually("re-park", func() bool { return execs.get(ids[0]) == 2 })
	h.runner.Wake("machine:h" + ids[0])
	h.waitStatus(ids[0], lifecycle.JobCompleted)
	h.runner.Wake("machine:unrelated")
	h.sync()
	if execs.get(ids[1]) != 1 {
		t.Fatal("a wake for another key resumed an unrelated run")
	}
}

func (h *harness) storeSetParallel(n int) error {
	_, err := h.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
		p.BatchMaxParallel = n
		return nil
	})
	return err
}

// A change announced while the stage is still looking (after it read the
// old state, before its run is parked) must not be lost.
func TestWakeDuringExecutionIsNotLost(t *testing.T) {
	var execs counter
	var h *harness
	h = newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageWaitForReady,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if execs.inc(c.Run.ID) == 1 {
				h.runner.Wake("machine:m1") // the machine turns Ready right now
				h.sync()                    // and the loop has handled that wake
				return Wait(time.Time{}, "machine:m1"), nil
			}
			return Done("ready"), nil
		}}}})
	h.start()
	id := h.submit("")
	h.waitStatus(id, lifecycle.JobCompleted)
	if execs.get(id) != 2 {
		t.Fatalf("executions = %d", execs.get(id))
	}
}
