package workflow_test

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// inertPower accepts the PXE boot cycle but the machine never PXE-boots
// (wrong boot order, a dead NIC): nothing appears in MAAS.
type inertPower struct{}

func (inertPower) PXEBootCycle(context.Context, lifecycle.BMCLogin) error { return nil }

// The policy timeouts of seed 001 §4.14 land in their failure class: the
// runner's clock is moved past them (the simulator keeps real time).
func TestPolicyTimeoutsLandInTheirClass(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(s *site)
		stage  lifecycle.Stage
		class  lifecycle.FailureClass
		action lifecycle.Action
		after  time.Duration // past the policy timeout
	}{
		{"agent never enrolls", func(s *site) {
			s.host("10.0.9.30", maassim.HostSpec{})
			s.enroll = func(maassim.Boot) {} // the host boots, its agent never calls
		}, lifecycle.StageWaitForAgentEnrollment, lifecycle.FailAgentEnrollment, lifecycle.ActionResume, 31 * time.Minute},
		{"hardware sync never shows after the repair", func(s *site) {
			s.host("10.0.9.30", maassim.HostSpec{})
			// Turned off while deploying: repaired and reseeded, but the
			// host's timer never reports.
			afterDeploy(s, func(sid string) {
				if err := s.sim.SetHardwareSyncOutOfBand(context.Background(), sid, false, 900, time.Time{}); err != nil {
					s.t.Error(err)
				}
			})
		}, lifecycle.StageWaitForHardwareSync, lifecycle.FailHardwareSync, lifecycle.ActionRetryStage, 31 * time.Minute},
		{"PXE never appears in MAAS", func(s *site) {
			s.sim.SetOpFault("POST machines", maassim.OpFault{ErrorRate: 1, Status: 400})
			s.deps.Power = inertPower{}
		}, lifecycle.StageCreateOrFindInMaas, lifecycle.FailPXEDiscovery, lifecycle.ActionRetryStage, 16 * time.Minute},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fc := clockwork.NewFakeClock()
			s := newSiteWith(t, siteOptions{clock: fc})
			c.setup(s)
			id := s.onboard("c12u01", "10.0.9.30")
			h := c.class.DefaultHandling()
			attempts := 1 // a timed-out wait ends the run at once...
			if c.stage == lifecycle.StageWaitForAgentEnrollment {
				attempts = h.MaxAttempts // ...but the enrollment wait is tried again
			}
			for attempt := 1; attempt <= attempts; attempt++ {
				s.parkedAt(id, c.stage, attempt, true)
				fc.Advance(c.after)
				if attempt < attempts {
					s.parkedAt(id, c.stage, attempt+1, false) // in its retry backoff
					fc.Advance(time.Minute)
				}
			}
			r := s.wait(id, 30*time.Second)
			if r.Status != h.LandsIn || r.FailureClass != c.class || r.RecommendedAction != c.action || r.CurrentStage != c.stage {
				t.Fatalf("got %s/%s at %s recommending %s (%s)\n%s", r.Status, r.FailureClass, r.CurrentStage,
					r.RecommendedAction, r.ErrorMessage, s.events(id))
			}
		})
	}
}

// parkedAt waits until the run is parked at stage and attempt: waiting
// inside the stage (started), or in the backoff before the attempt starts.
func (s *site) parkedAt(id string, stage lifecycle.Stage, attempt int, started bool) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := s.run(id)
		// Parked in the journal is enough: a timer armed after the clock
		// moved past its deadline fires at once.
		if r.CurrentStage == stage && r.CurrentAttempt == attempt && r.WaitUntil != nil && (r.StageStartedAt != nil) == started {
			return
		}
		if r.Status.Failed() || r.Status.Terminal() || time.Now().After(deadline) {
			s.t.Fatalf("run %s is %s at %s#%d, want parked at %s#%d\n%s", id, r.Status, r.CurrentStage, r.CurrentAttempt, stage, attempt, s.events(id))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
