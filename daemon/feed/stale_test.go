package feed_test

import (
	"context"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Two hints about a retired node's deployed machine, both read from MAAS
// before the first release went out (a webhook and the events poll racing
// each other): the machine is released once. A read taken after the
// release is judged again.
func TestObservationReadBeforeAnActionIsNotActedOnAgain(t *testing.T) {
	s := newSite(t, opts{noFeed: true})
	ctx := context.Background()
	id, sid := s.activeNode("gpu-a1")
	s.move(id, lifecycle.NodeActive, lifecycle.NodeDraining, lifecycle.ActorDrainLifecycle, "drain-1")
	s.move(id, lifecycle.NodeDraining, lifecycle.NodeRetired, lifecycle.ActorDrainLifecycle, "")
	epoch := s.recon.Epoch()
	m, err := s.client.Machine(ctx, sid)
	must(t, err)
	stale := map[string]lifecycle.Observation{sid: {Present: true, Machine: m, Epoch: epoch}}
	for range 2 {
		_, err := s.recon.Observe(ctx, siteID, stale)
		must(t, err)
	}
	if got := join(s.audits(id)); got != "reconcile.release" {
		t.Fatalf("audit %q, want one reconcile.release", got)
	}
	fresh := map[string]lifecycle.Observation{sid: {Present: true, Machine: m, Epoch: s.recon.Epoch()}}
	_, err = s.recon.Observe(ctx, siteID, fresh)
	must(t, err)
	if got := len(s.audits(id)); got != 2 {
		t.Fatalf("a read taken after the release was not judged: audit %v", s.audits(id))
	}
}
