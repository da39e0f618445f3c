package workflow_test

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// An erasing release whose answer is lost and which MAAS applies after
// the retry's re-read: the retried release is refused 409 (MAAS does not
// release a Disk erasing machine); the stage re-reads and waits on the
// erase as its own, and the decommission completes.
func TestReleaseLostAnswerAppliedLateIsWaitedOn(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c21u09", "10.0.21.9")
	s.runAgent(n.ID, cleanHost)
	s.sim.SetOpFault(maassim.EraseOp, maassim.OpFault{Late: 1})
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeFullDecommission, Erase: lifecycle.EraseQuick})
	r := s.wait(id, 60*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if got := s.log.count(n.MaasSystemID, "POST", "release"); got != 2 {
		t.Errorf("%d releases, want the late one and the refused one", got)
	}
}
