package workflow_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// TestOnboardBatchOf50 onboards 50 machines as one batch, ten at a time;
// every machine boots the rendered cloud-init and its real agent enrolls
// over mutual TLS.
func TestOnboardBatchOf50(t *testing.T) {
	s := newSite(t)
	withRealAgents(t, s)
	_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
		p.BatchMaxParallel = 10
		return nil
	})
	must(t, err)
	var runs []lifecycle.Run
	for i := 0; i < 50; i++ {
		ip := fmt.Sprintf("10.176.17.%d", i+10)
		s.host(ip, maassim.HostSpec{})
		id, _ := lifecycle.NewID(nil)
		runs = append(runs, lifecycle.Run{ID: id, Kind: lifecycle.RunOnboarding, SiteID: "site-1",
			Hostname: fmt.Sprintf("c08u%02d", i), IPMIIP: ip, SKU: "mi300x.192g.8gpu", Status: lifecycle.JobPending})
	}
	res, err := s.store.Submit(context.Background(), lifecycle.Submission{
		Batch: &lifecycle.Batch{ID: "batch-1", SiteID: "site-1", Kind: lifecycle.RunOnboarding}, Runs: runs})
	must(t, err)
	for _, id := range res.RunIDs {
		s.runner.Submit(id)
	}
	for _, id := range res.RunIDs {
		r := s.wait(id, 90*time.Second)
		if r.Status != lifecycle.JobCompleted {
			t.Fatalf("%s (%s) %s at %s: %s\n%s", id, r.Hostname, r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
		}
		n, err := s.store.GetNode(context.Background(), r.NodeID)
		must(t, err)
		if n.Status != lifecycle.NodeActive || n.EnrolledAt == nil || n.AgentCertSerial == "" || r.BatchID != "batch-1" {
			t.Fatalf("node %s is %s (batch %q)", n.Hostname, n.Status, r.BatchID)
		}
		if d := s.log.count(r.MaasSystemID, "POST", "deploy"); d != 1 {
			t.Fatalf("%s deployed %d times", r.Hostname, d)
		}
	}
	if max := s.maxConcurrent(); max > 10 {
		t.Fatalf("%d runs ran at once; batch_max_parallel is 10", max)
	}
}
