package runner

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestObserverSeesEveryEndedAttemptWithItsDuration(t *testing.T) {
	var mu sync.Mutex
	var got []StageObservation
	var h *harness
	h = newHarness(t, &Def{Name: "onboarding", Stages: []StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: func(ctx context.Context, c *Context) (Outcome, error) {
			h.clock.Advance(3 * time.Second)
			return Done("ok"), nil
		}},
		{Stage: lifecycle.StageCommissionNode, Class: lifecycle.FailHardwareMismatch,
			Run: func(ctx context.Context, c *Context) (Outcome, error) {
				return Outcome{}, lifecycle.Errorf(lifecycle.CodeConflict, "t", "no BOSS disk")
			}},
	}})
	h.observe = func(o StageObservation) { mu.Lock(); got = append(got, o); mu.Unlock() }
	h.start()
	id := h.submit("")
	h.waitStatus(id, lifecycle.JobFailedManualIntervention)
	// The observer hears an attempt after its journal write committed,
	// so the stored status can be seen first.
	h.eventually("two observations", func() bool { mu.Lock(); defer mu.Unlock(); return len(got) >= 2 })
	mu.Lock()
	defer mu.Unlock()
	want := []StageObservation{
		{Workflow: "onboarding", Kind: lifecycle.RunOnboarding, Stage: lifecycle.StageLoadSiteConfig,
			Outcome: lifecycle.EventSucceeded, Duration: 3 * time.Second, RunStatus: lifecycle.JobRunning},
		{Workflow: "onboarding", Kind: lifecycle.RunOnboarding, Stage: lifecycle.StageCommissionNode,
			Outcome: lifecycle.EventFailed, FailureClass: lifecycle.FailHardwareMismatch,
			RunStatus: lifecycle.JobFailedManualIntervention, Ended: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("observations (-want +got):\n%s", d)
	}
}
