package runner

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The feed and the agent API may call Wake and Submit before Run has
// started, while it starts and after it returned: calls before Run are
// queued and handled once the runs are recovered, calls after Run return
// at once and do nothing.
func TestWakeAndSubmitAroundTheLoopsLifetime(t *testing.T) {
	h := newHarness(t, &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageLoadSiteConfig, Run: ok("ok")}}})
	h.build()
	early := h.create("")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		h.runner.Submit(early)
		for i := range 300 {
			h.runner.Wake(fmt.Sprintf("machine:m%d", i))
		}
	}()
	h.runBuilt()
	wg.Wait()
	h.waitStatus(early, lifecycle.JobCompleted)
	h.stop()

	returned := make(chan struct{})
	go func() {
		defer close(returned)
		for i := range 3000 { // more than the loop's queue holds
			h.runner.Wake("machine:x")
			h.runner.Submit(fmt.Sprintf("run-late-%d", i))
		}
	}()
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("Wake and Submit block after the runner stopped")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	start := time.Now()
	if err := h.runner.call(ctx, func() {}); lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable || time.Since(start) > time.Second {
		t.Fatalf("call() after the runner stopped = %v after %v, want unavailable at once", err, time.Since(start))
	}
}
