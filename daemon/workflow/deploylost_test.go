package workflow_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// A deploy whose answer is lost (504) but which MAAS applies after the
// retry's re-read still showed Ready: the retry's deploy is refused 409
// "Can't deploy a machine that is in the 'Deploying' state". The stage
// re-reads, finds this run's deploy (owner and series) and adopts it:
// the run completes, no third deploy is sent.
func TestDeployLostAnswerAppliedLateIsAdoptedNotParked(t *testing.T) {
	s := newSite(t)
	sid := readyMachine(t, s, "c09u41", "10.0.9.141", maassim.HostSpec{})
	s.sim.SetOpFault("deploy", maassim.OpFault{Late: 1})
	r := s.wait(s.onboard("c09u41", "10.0.9.141"), 60*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("run %s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
	}
	if got := s.machineCalls(sid); !strings.Contains(got, "deploy=2") {
		t.Errorf("MAAS calls %s, want the late deploy and the refused one only", got)
	}
	if !strings.Contains(s.events(r.ID), "adopted") {
		t.Errorf("no adoption in the journal:\n%s", s.events(r.ID))
	}
}

// Another client's deploy is never adopted: landing before the deploy
// stage (seen on its first read) or between its read and its deploy
// (MAAS answers 409), a machine Deploying for another MAAS user or
// another series parks the run in failed_manual_intervention as a state
// ambiguity whose message says whose deploy it is.
func TestDeployOfAnotherClientIsNeverAdopted(t *testing.T) {
	cases := []struct {
		name          string
		tokenRead     int32 // the get_token read after which it lands (1: render, 2: deploy)
		owner, series string
		want          string
	}{
		{"other owner, before the stage", 1, "someone", "ubuntu/noble", "someone"},
		{"other owner, answered 409", 2, "someone", "ubuntu/noble", "someone"},
		{"other series, answered 409", 2, "admin", "ubuntu/jammy", "ubuntu/jammy"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			host, ip := "c09u5"+string(rune('1'+i)), "10.0.9.15"+string(rune('1'+i))
			sid := readyMachine(t, s, host, ip, maassim.HostSpec{})
			var reads atomic.Int32
			s.log.setAfter(func(call string) {
				if strings.HasSuffix(call, " get_token") && reads.Add(1) == c.tokenRead {
					must(t, s.sim.DeployOutOfBand(context.Background(), sid, c.owner, c.series))
				}
			})
			r := s.wait(s.onboard(host, ip), 60*time.Second)
			if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailStateAmbiguity ||
				r.CurrentStage != lifecycle.StageDeployViaMaas || !strings.Contains(r.ErrorMessage, c.want) {
				t.Fatalf("run %s (%s) at %s: %q; want a state ambiguity at deploy naming %q", r.Status, r.FailureClass,
					r.CurrentStage, r.ErrorMessage, c.want)
			}
		})
	}
}

// The adopted late deploy boots with the payload of the attempt whose
// answer was lost, not the refused retry's: the real agent enrolls with
// that payload's token (the retry's newer token had superseded it, so
// the stage reinstates it on adoption) and the run completes with the
// node enrolled.
func TestDeployLostAnswerAppliedLateEnrollsWithItsOwnToken(t *testing.T) {
	s := newSite(t)
	withRealAgents(t, s)
	readyMachine(t, s, "c09u42", "10.0.9.142", maassim.HostSpec{})
	s.sim.SetOpFault("deploy", maassim.OpFault{Late: 1})
	r := s.wait(s.onboard("c09u42", "10.0.9.142"), 60*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("run %s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(r.ID))
	}
	n, err := s.store.GetNode(context.Background(), r.NodeID)
	must(t, err)
	if n.Status != lifecycle.NodeActive || n.EnrolledAt == nil || n.AgentCertSerial == "" {
		t.Fatalf("node after the adopted deploy: %+v", n)
	}
	if !strings.Contains(s.events(r.ID), "adopted") {
		t.Errorf("no adoption in the journal:\n%s", s.events(r.ID))
	}
}
