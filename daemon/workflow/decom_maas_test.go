package workflow_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// A reimage keeps the node id, releases and deploys once, revokes the old
// host's certificate at release and ends with the new agent enrolled and
// the node active.
func TestReimageKeepsTheNodeAndRevokesTheOldCertificate(t *testing.T) {
	s := newSite(t)
	s.reenrollOnBoot()
	n := s.deployedNode("c21u01", "10.0.21.1")
	s.runAgent(n.ID, cleanHost)
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeReimage, Erase: lifecycle.EraseQuick,
		Storage: lifecycle.StorageLocal, Reason: "security_patch"})
	r := s.wait(id, 60*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	got := s.node(n.ID)
	if got.Status != lifecycle.NodeActive || r.NodeID != n.ID {
		t.Fatalf("node %s is %s after the reimage of %s", r.NodeID, got.Status, n.ID)
	}
	now := time.Now()
	if v := got.CheckAgentCert("old-c21u01", now); v != lifecycle.CertSuperseded {
		t.Errorf("the old host's certificate is %s, want superseded", v)
	}
	if v := got.CheckAgentCert(got.AgentCertSerial, now); v != lifecycle.CertCurrent || !strings.HasPrefix(got.AgentCertSerial, "new-") {
		t.Errorf("the re-enrolled agent's certificate %q is %s", got.AgentCertSerial, v)
	}
	if calls := s.machineCalls(n.MaasSystemID); calls != "release=1 deploy=1 power_off=0" {
		t.Errorf("MAAS calls: %s, want one release and one deploy", calls)
	}
	want := "node.decommission.started,node.disabled,node.enabled,node.decommission.completed"
	if ev := joined(s.eventTypes(id, 4)); ev != want {
		t.Errorf("events %s", ev)
	}
}

// A full decommission ends with the machine Ready and powered off (or
// deleted from MAAS when the site policy says so), the node deleted for
// good, and a re-onboard of the machine makes a new node.
func TestFullDecommissionDeletesTheNode(t *testing.T) {
	for _, remove := range []bool{false, true} {
		t.Run(map[bool]string{false: "machine left in MAAS", true: "machine deleted from MAAS"}[remove], func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
				p.RemoveMaasRecord = remove
				return nil
			})
			must(t, err)
			n := s.deployedNode("c21u02", "10.0.21.2")
			seen := s.runAgent(n.ID, cleanHost)
			id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeFullDecommission, Erase: lifecycle.EraseSecure,
				Reason: "hardware_removal"})
			r := s.wait(id, 60*time.Second)
			if r.Status != lifecycle.JobCompleted {
				t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
			}
			got := s.node(n.ID)
			if got.Status != lifecycle.NodeDeleted || got.IdentityRetained || got.AgentCertSerial != "" {
				t.Fatalf("node = %s retained=%v serial=%q", got.Status, got.IdentityRetained, got.AgentCertSerial)
			}
			if joined(seen.types()) != "terminal.close,allocation.revoke_user,node.uninstall" {
				t.Errorf("agent tasks %v", seen.types())
			}
			ev := joined(s.eventTypes(id, 4))
			if ev != "node.decommission.started,node.disabled,node.allocations.force_released,node.decommission.completed" {
				t.Errorf("events %s", ev)
			}
			m, err := s.client(t).Machine(context.Background(), n.MaasSystemID)
			if remove {
				if lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
					t.Fatalf("machine still in MAAS: %v %v", m.Status, err)
				}
				return
			}
			must(t, err)
			if m.Status != lifecycle.MaasReady || m.PowerState != "off" {
				t.Fatalf("machine %s power %s, want Ready and off", m.Status, m.PowerState)
			}
			if calls := s.machineCalls(n.MaasSystemID); calls != "release=1 deploy=0 power_off=0" {
				t.Errorf("MAAS calls %s (the release powered it off; no second power-off)", calls)
			}
			re := s.wait(s.onboard("c21u02", "10.0.21.2"), 60*time.Second)
			if re.Status != lifecycle.JobCompleted || re.NodeID == n.ID || re.NodeID == "" {
				t.Fatalf("re-onboard: %s node %s (old %s): %s", re.Status, re.NodeID, n.ID, re.ErrorMessage)
			}
		})
	}
}

// An uninstall that fails leaves the node retired, never deleted, until
// an operator retries the stage.
func TestFailedUninstallKeepsTheNodeRetired(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c21u03", "10.0.21.3")
	s.runAgent(n.ID, func(tk lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
		return result(tk, tk.Type != lifecycle.TaskUninstall), true
	})
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeFullDecommission})
	r := s.wait(id, 60*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.CurrentStage != lifecycle.StageRemoveNodeRecord ||
		r.FailureClass != lifecycle.FailAgentTask {
		t.Fatalf("%s/%s at %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if got := s.node(n.ID).Status; got != lifecycle.NodeRetired {
		t.Fatalf("node is %s, want retired", got)
	}
	_, err := s.runner.Act(context.Background(), runner.ActionRequest{RunID: id, Action: lifecycle.ActionRetryStage,
		Actor: "test", Role: "operator", Reason: "agent confirmed gone"})
	must(t, err)
	if r = s.wait(id, 30*time.Second); r.Status != lifecycle.JobCompleted || s.node(n.ID).Status != lifecycle.NodeDeleted {
		t.Fatalf("after retry: %s, node %s\n%s", r.Status, s.node(n.ID).Status, s.events(id))
	}
}

// A failed disk erase falls back to a release without erase when the
// site policy allows it, and stops for an operator when it does not.
func TestEraseFailure(t *testing.T) {
	for _, fallback := range []bool{true, false} {
		t.Run(map[bool]string{true: "fallback allowed", false: "fallback off"}[fallback], func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
				p.ReleaseFallbackNoErase = fallback
				return nil
			})
			must(t, err)
			n := s.deployedNode("c21u04", "10.0.21.4")
			must(t, s.sim.FailNextErase(context.Background(), n.MaasSystemID, 1))
			s.runAgent(n.ID, cleanHost)
			id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeFullDecommission, Erase: lifecycle.EraseQuick})
			r := s.wait(id, 60*time.Second)
			if fallback {
				if r.Status != lifecycle.JobCompleted || s.stageDetails(id, lifecycle.StageReleaseMaasNode)["erase"] == "quick" {
					t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
				}
				if calls := s.machineCalls(n.MaasSystemID); calls != "release=2 deploy=0 power_off=0" {
					t.Errorf("MAAS calls %s, want the erase release and one without erase", calls)
				}
				return
			}
			if r.Status != lifecycle.JobFailedManualIntervention || r.CurrentStage != lifecycle.StageReleaseMaasNode ||
				!strings.Contains(r.ErrorMessage, "release_fallback_no_erase") {
				t.Fatalf("%s at %s: %s", r.Status, r.CurrentStage, r.ErrorMessage)
			}
			if got := s.node(n.ID).Status; got != lifecycle.NodeActive || s.log.count(n.MaasSystemID, "POST", "release") != 1 {
				t.Fatalf("node %s after a refused fallback (releases %d)", got, s.log.count(n.MaasSystemID, "POST", "release"))
			}
		})
	}
}

// A machine MAAS cannot read as powered off (its BMC queries fail) is
// never taken as off: after the bounded retries, each up to the policy
// timeout, the run stops for an operator, never completed.
func TestPowerOffThatDoesNotConverge(t *testing.T) {
	fc := newFakeClock()
	s := newSiteWith(t, siteOptions{clock: fc})
	n := s.deployedNode("c21u05", "10.0.21.5")
	s.runAgent(n.ID, cleanHost)
	s.sim.SetOpFault("query_power_state", maassim.OpFault{ErrorRate: 1})
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeFullDecommission})
	// bmc_power_failure retries the stage (each with a fresh window)
	// within its bound, then lands in manual intervention.
	bound := lifecycle.FailBMCPower.DefaultHandling().MaxAttempts
	for attempt := 1; attempt <= bound; attempt++ {
		s.parkedAt(id, lifecycle.StagePowerOffMaasNode, attempt, true)
		fc.Advance(11 * time.Minute)
		if attempt < bound {
			s.parkedAt(id, lifecycle.StagePowerOffMaasNode, attempt+1, false)
			fc.Advance(10 * time.Minute)
		}
	}
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailBMCPower ||
		!strings.Contains(r.ErrorMessage, "did not power off") {
		t.Fatalf("%s/%s at %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if got := s.node(n.ID).Status; got != lifecycle.NodeActive {
		t.Errorf("node is %s; it must not be retired before the power-off converged", got)
	}
}

// An agent that never takes its tasks stops the run for an operator at
// the agent task timeout, with a message that says so.
func TestUnreachableAgentNeedsAnOperator(t *testing.T) {
	fc := newFakeClock()
	s := newSiteWith(t, siteOptions{clock: fc})
	n := s.deployedNode("c21u06", "10.0.21.6")
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeReimage})
	s.parkedAt(id, lifecycle.StageDrainNode, 1, true)
	fc.Advance(16 * time.Minute)
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailAgentTask ||
		!strings.Contains(r.ErrorMessage, "unreachable") {
		t.Fatalf("%s/%s at %s: %s\n%s", r.Status, r.FailureClass, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if calls := s.machineCalls(n.MaasSystemID); calls != "release=0 deploy=0 power_off=0" {
		t.Errorf("MAAS was touched before the drain finished: %s", calls)
	}
}

// What a crash between MAAS accepting the release and the journal
// recording it leaves behind: the machine already erasing while the run
// has not released it. The stage re-reads MAAS and adopts it; no second
// release is sent.
func TestReleaseStageAdoptsAReleaseAlreadyUnderway(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c21u07", "10.0.21.7")
	s.runAgent(n.ID, cleanHost)
	_, err := s.client(t).Release(context.Background(), n.MaasSystemID, lifecycle.ReleaseSpec{Erase: lifecycle.EraseQuick})
	must(t, err)
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeFullDecommission, Erase: lifecycle.EraseQuick})
	r := s.wait(id, 60*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	if got := s.log.count(n.MaasSystemID, "POST", "release"); got != 1 {
		t.Fatalf("%d releases, want only the one already underway", got)
	}
}
