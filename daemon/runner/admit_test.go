package runner

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// gate holds every run in its stage until released by key.
func gateDef(started *[]string, mu *sync.Mutex) *Def {
	return &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageCommissionNode,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if c.Var("released") == "yes" {
				return Done("released"), nil
			}
			mu.Lock()
			if c.Var("seen") == "" {
				*started = append(*started, c.Run.ID)
			}
			mu.Unlock()
			c.SetVar("seen", "yes")
			return Wait(c.Now().Add(24*3600e9), "release:"+c.Run.ID), nil
		}}}}
}

func (h *harness) release(id string) {
	h.t.Helper()
	_, err := h.store.UpdateRun(context.Background(), h.fence(), id, func(r *lifecycle.Run) error {
		setVar(r, "released", "yes")
		return nil
	})
	h.must(err)
	h.runner.Wake("release:" + id)
}

func (h *harness) fence() lifecycle.Fence {
	l, err := h.store.GetLease(context.Background(), "site-1")
	h.must(err)
	return l.Fence()
}

func TestSiteCapQueuesInRequestOrder(t *testing.T) {
	var mu sync.Mutex
	var started []string
	h := newHarness(t, gateDef(&started, &mu))
	h.must(h.storeSetParallel(2))
	h.start()
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, h.submit(""))
	}
	h.waitParked(ids[0])
	h.waitParked(ids[1])
	for _, id := range ids[2:] {
		if st := h.run(id).Status; st != lifecycle.JobPending {
			t.Fatalf("run %s is %s beyond the cap of 2; excess runs must queue", id, st)
		}
	}
	for i, id := range ids {
		h.release(id)
		h.waitStatus(id, lifecycle.JobCompleted)
		if i+2 < len(ids) {
			h.waitParked(ids[i+2])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// The first two are admitted together and start in either order; each
	// later one is admitted alone, when a slot frees, in request order.
	first := map[string]bool{started[0]: true, started[1]: true}
	if !first[ids[0]] || !first[ids[1]] {
		t.Fatalf("first admitted %v, want %v", started[:2], ids[:2])
	}
	if diff := cmp.Diff(ids[2:], started[2:]); diff != "" {
		t.Fatalf("admission order (-requested +started):\n%s", diff)
	}
}

func TestOneRunPerBMC(t *testing.T) {
	var mu sync.Mutex
	var started []string
	h := newHarness(t, gateDef(&started, &mu))
	h.start()
	a := h.submit("10.0.0.9")
	b := h.submit("10.0.0.9")
	c := h.submit("10.0.0.10")
	h.waitParked(a)
	h.waitParked(c) // a different BMC overtakes the blocked run
	if st := h.run(b).Status; st != lifecycle.JobPending {
		t.Fatalf("second run on one BMC is %s, want pending", st)
	}
	h.release(a)
	h.waitStatus(a, lifecycle.JobCompleted)
	h.waitParked(b)
}
