package runner

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// OnEnd hears of each run that ended (completed or failed) once, after
// the journal write that ended it, and of nothing else.
func TestOnEndHearsEachEndOnce(t *testing.T) {
	var mu sync.Mutex
	var ends []string
	fail := func(ctx context.Context, c *Context) (Outcome, error) {
		if c.Run.IPMIIP == "10.0.0.2" {
			return Outcome{}, Classed(lifecycle.FailHardwareMismatch, errors.New("no BOSS"))
		}
		return Done("ok"), nil
	}
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: ok("ok")},
		{Stage: lifecycle.StageConfigureStorage, Run: fail},
	}, OnEnd: func(_ context.Context, r lifecycle.Run) {
		mu.Lock()
		ends = append(ends, r.IPMIIP+":"+string(r.Status)+"@"+string(r.CurrentStage))
		mu.Unlock()
	}})
	h.start()
	a, b := h.submit("10.0.0.1"), h.submit("10.0.0.2")
	h.waitStatus(a, lifecycle.JobCompleted)
	h.waitStatus(b, lifecycle.JobFailedManualIntervention)
	h.eventually("both ends heard", func() bool { mu.Lock(); defer mu.Unlock(); return len(ends) >= 2 })
	h.sync()
	mu.Lock()
	defer mu.Unlock()
	want := map[string]bool{"10.0.0.1:completed@configure_storage": true,
		"10.0.0.2:failed_manual_intervention@configure_storage": true}
	got := map[string]bool{}
	for _, e := range ends {
		got[e] = true
	}
	if len(ends) != 2 || !cmp.Equal(want, got) {
		t.Fatalf("OnEnd heard %v", ends)
	}
}
