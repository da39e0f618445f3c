package workflow_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

func TestOnboardOneNode(t *testing.T) {
	s := newSite(t)
	s.host("10.176.16.128", maassim.HostSpec{})
	must(t, s.storeRoCE("c07u43", "ens1f0np0", "172.30.9.61/31"))
	id := s.onboard("c07u43", "10.176.16.128")
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("run %s at %s: %s (%s)\n%s", r.Status, r.CurrentStage, r.ErrorMessage, r.FailureClass, s.events(id))
	}
	n, err := s.store.GetNode(context.Background(), r.NodeID)
	must(t, err)
	if n.Status != lifecycle.NodeActive || n.MaasSystemID != r.MaasSystemID || n.Host == "" {
		t.Fatalf("node = %+v", n)
	}
	if got := s.log.count(r.MaasSystemID, "POST", "deploy"); got != 1 {
		t.Fatalf("deploy issued %d times", got)
	}
	t.Log(s.events(id))
}

func (s *site) storeRoCE(host, iface, cidr string) error {
	id, _ := lifecycle.NewID(nil)
	_, err := s.store.UpsertRoCEAssignments(context.Background(), "site-1",
		[]lifecycle.RoCEAssignment{{ID: id, Hostname: host, Interface: iface, IPv4CIDR: cidr}})
	return err
}
