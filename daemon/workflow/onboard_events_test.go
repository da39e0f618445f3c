package workflow_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// envelopeOf is the envelope issued under key ("" for none).
func (s *site) envelopeOf(key string) string {
	s.t.Helper()
	rec, ok, err := certledger.Ledger{B: s.store.(certledger.Backend)}.ByRun(context.Background(), key)
	must(s.t, err)
	if !ok {
		return ""
	}
	return string(rec.Envelope)
}

// An onboarding that ends publishes node.onboarding.completed carrying
// the run's certificate, as a turnover's ending event does.
func TestOnboardingCompletedEventCarriesTheCertificate(t *testing.T) {
	s := newSite(t)
	s.host("10.176.16.131", maassim.HostSpec{})
	id := s.onboard("c07u46", "10.176.16.131")
	if r := s.wait(id, 30*time.Second); r.Status != lifecycle.JobCompleted {
		t.Fatalf("run %s at %s: %s", r.Status, r.CurrentStage, r.ErrorMessage)
	}
	want := s.envelopeOf(id)
	if got := s.outbox.certificateOf(id, "node.onboarding.completed"); want == "" || got != want {
		t.Fatalf("node.onboarding.completed carries %q, want the run's certificate %q", got, want)
	}
}

// A failed acceptance is certified (outcome quarantined, measured after
// the deploy) and node.onboarding.failed carries that certificate.
func TestOnboardingFailedEventCarriesTheQuarantineCertificate(t *testing.T) {
	s := acceptanceSite(t)
	id := s.onboard("c07u52", "10.176.16.140")
	s.agentOnceNode(id, false)
	if r := s.wait(id, 30*time.Second); r.Status != lifecycle.JobFailedManualIntervention {
		t.Fatalf("run %s at %s: %s", r.Status, r.CurrentStage, r.ErrorMessage)
	}
	got, ok := s.certOf(cert.QuarantineKey(id))
	if !ok || got.Predicate.Outcome != cert.OutcomeQuarantined || got.Predicate.Mode != "onboarding_acceptance" {
		t.Fatalf("quarantine certificate %v: %+v", ok, got.Predicate)
	}
	for _, ch := range got.Predicate.Checks {
		if ch.Where != cert.AfterRedeploy {
			t.Errorf("check %+v not marked after_redeploy", ch)
		}
	}
	want := s.envelopeOf(cert.QuarantineKey(id))
	if ev := s.outbox.certificateOf(id, "node.onboarding.failed"); ev != want {
		t.Fatalf("node.onboarding.failed carries %q, want the quarantine certificate", ev)
	}
}
