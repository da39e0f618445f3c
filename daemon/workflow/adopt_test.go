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

// adopt_observed_state through the runner (seed 001 §4.9): accepted when
// the node is active and MAAS shows the machine Deployed, the run then
// reconciled; refused with a conflict that says why otherwise, the run,
// its node and MAAS left as they were.
func TestAdoptObservedState(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(t *testing.T, s *site, r lifecycle.Run)
		refuse string // "" when the adoption is accepted
	}{
		{"node active, machine Deployed", func(t *testing.T, s *site, r lifecycle.Run) { s.activate(t, r.NodeID) }, ""},
		{"node still enrolling", func(*testing.T, *site, lifecycle.Run) {}, "is enrolling, not active"},
		{"machine released out of band", func(t *testing.T, s *site, r lifecycle.Run) {
			s.activate(t, r.NodeID)
			must(t, s.sim.ReleaseOutOfBand(context.Background(), r.MaasSystemID))
		}, "not Deployed"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			s.enroll = func(maassim.Boot) {} // the agent does not call
			host, ip := "c09u2"+string(rune('1'+i)), "10.0.9.6"+string(rune('1'+i))
			sid := readyMachine(t, s, host, ip, maassim.HostSpec{})
			id := s.onboard(host, ip)
			s.parkedAt(id, lifecycle.StageWaitForAgentEnrollment, 1, true)
			c.setup(t, s, s.run(id))
			before, writes := s.run(id), s.maasWrites(sid)
			_, err := s.runner.Act(context.Background(), runner.ActionRequest{RunID: id,
				Action: lifecycle.ActionAdoptObservedState, Actor: "test", Role: "admin", Reason: "enrolled late"})
			after := s.run(id)
			if s.maasWrites(sid) != writes {
				t.Errorf("the adoption check wrote to MAAS")
			}
			if c.refuse == "" {
				must(t, err)
				if after.Status != lifecycle.JobReconciled || after.CompletedAt == nil {
					t.Fatalf("adopted run is %s, want reconciled", after.Status)
				}
				return
			}
			if lifecycle.ErrorCode(err) != lifecycle.CodeConflict || !strings.Contains(err.Error(), c.refuse) {
				t.Fatalf("adopt: %v; want a conflict saying %q", err, c.refuse)
			}
			if after.Status != before.Status || after.CurrentStage != before.CurrentStage || after.UpdatedAt != before.UpdatedAt {
				t.Errorf("refused adoption changed the run: %s at %s -> %s at %s", before.Status, before.CurrentStage, after.Status, after.CurrentStage)
			}
		})
	}
	t.Run("no node yet", func(t *testing.T) {
		t.Parallel()
		s := newSite(t)
		readyMachine(t, s, "c09u29", "10.0.9.69", maassim.HostSpec{NoBOSS: true})
		r := s.wait(s.onboard("c09u29", "10.0.9.69"), 60*time.Second)
		_, err := s.runner.Act(context.Background(), runner.ActionRequest{RunID: r.ID,
			Action: lifecycle.ActionAdoptObservedState, Actor: "test", Role: "admin", Reason: "looks fine"})
		if lifecycle.ErrorCode(err) != lifecycle.CodeConflict || !strings.Contains(err.Error(), "no node or machine") {
			t.Fatalf("adopt of a run failed at %s: %v; want a conflict", r.CurrentStage, err)
		}
		if got := s.run(r.ID); got.Status != r.Status {
			t.Errorf("refused adoption moved the run to %s", got.Status)
		}
	})
}

// activate moves the run's node to active as the enrollment stage does
// for an agent that enrolled (the run is not woken).
func (s *site) activate(t *testing.T, nodeID string) {
	_, err := s.store.TransitionNode(context.Background(), lifecycle.NodeTransition{NodeID: nodeID,
		From: lifecycle.NodeEnrolling, To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}})
	must(t, err)
}

// maasWrites counts the non-GET calls made on the machine.
func (s *site) maasWrites(sid string) int {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	n := 0
	for _, c := range s.log.calls {
		if !strings.HasPrefix(c, "GET ") && strings.Contains(c, "/"+sid+"/") {
			n++
		}
	}
	return n
}
