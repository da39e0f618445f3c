package main

import (
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// The held set follows the runner's lease events, and the feed is told
// only when it changed (a renewal of a held site is not a change).
func TestHeldSitesFollowLeaseEvents(t *testing.T) {
	var changes int
	h := &heldSites{changed: func() { changes++ }}
	steps := []struct {
		kind    runner.LeaseEventKind
		held    bool
		changes int
	}{
		{runner.LeaseStandby, false, 0},
		{runner.LeaseTakeover, true, 1},
		{runner.LeaseRenewed, true, 1},
		{runner.LeaseLost, false, 2},
		{runner.LeaseAcquired, true, 3},
		{runner.LeaseReleased, false, 4},
	}
	for _, s := range steps {
		h.observe(runner.LeaseEvent{Kind: s.kind, Site: "s1"})
		if h.has("s1") != s.held || changes != s.changes {
			t.Fatalf("after %s: held %v, changes %d; want %v, %d", s.kind, h.has("s1"), changes, s.held, s.changes)
		}
	}
	if h.has("s2") {
		t.Error("a site never leased is held")
	}
}
