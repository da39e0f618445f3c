package workflow_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/certledger"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// siteKey is the test site's signing key.
var siteKey = func() ed25519.PrivateKey {
	_, k, _ := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{3}, 64)))
	return k
}()

// certIssuer issues certificates into st's ledger with siteKey.
func certIssuer(st lifecycle.Store) workflow.Certifier {
	return &cert.Issuer{Key: cert.Signer{Key: siteKey}, Ledger: certledger.Ledger{B: st.(certledger.Backend)}, Clock: clockwork.NewRealClock()}
}

// certOf returns the certificate issued under key, decoded.
func (s *site) certOf(key string) (cert.Certificate, bool) {
	s.t.Helper()
	rec, ok, err := certledger.Ledger{B: s.store.(certledger.Backend)}.ByRun(context.Background(), key)
	must(s.t, err)
	if !ok {
		return cert.Certificate{}, false
	}
	v, err := cert.Verify(context.Background(), rec.Envelope, []ed25519.PublicKey{siteKey.Public().(ed25519.PublicKey)})
	must(s.t, err)
	return v.Certificate, true
}

// verifyExport exports node's chain and verifies it with the public key
// alone, as an auditor does.
func (s *site) verifyExport(nodeID string) string {
	s.t.Helper()
	b, err := certledger.Ledger{B: s.store.(certledger.Backend)}.Export(context.Background(), nodeID)
	must(s.t, err)
	raw, _ := json.Marshal(b)
	report, err := cert.VerifyFile(context.Background(), raw, []ed25519.PublicKey{siteKey.Public().(ed25519.PublicKey)})
	if err != nil {
		s.t.Fatalf("the node's export does not verify: %v", err)
	}
	return strings.Join(report, "\n")
}

// Every turnover mode ends with a certificate of the run, every check
// marked where it was measured: a soft reset on the tenant's OS, a
// reimage after the redeploy, a full decommission by the daemon alone.
func TestTurnoversIssueAVerifiableCertificate(t *testing.T) {
	cases := []struct {
		mode  lifecycle.DecommissionMode
		where string
		check string
	}{
		{lifecycle.ModeSoftReset, cert.InBandTenantOS, "gpu_memory"},
		{lifecycle.ModeReimage, cert.AfterRedeploy, "stage:wait_for_agent_enrollment"},
		{lifecycle.ModeFullDecommission, cert.DaemonObserved, "stage:remove_maas_record"},
	}
	for _, c := range cases {
		t.Run(string(c.mode), func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			s.reenrollOnBoot()
			n := s.deployedNode("c22u01", "10.0.22.1")
			s.runAgent(n.ID, cleanHost)
			id := s.decommission(n, lifecycle.DecommissionRequest{Mode: c.mode, Reason: "tenant_transition"})
			if r := s.wait(id, 60*time.Second); r.Status != lifecycle.JobCompleted {
				t.Fatalf("%s at %s: %s", r.Status, r.CurrentStage, r.ErrorMessage)
			}
			got, ok := s.certOf(id)
			if !ok {
				t.Fatal("the completed run has no certificate")
			}
			p := got.Predicate
			if p.Mode != string(c.mode) || p.Outcome != cert.OutcomeClean || got.Node.NodeID != n.ID || got.Node.MAASSystemID != n.MaasSystemID {
				t.Fatalf("certificate %+v", got)
			}
			names := ""
			for _, ch := range p.Checks {
				if ch.Where != c.where || ch.Verdict != "pass" {
					t.Errorf("check %+v, want pass measured %s", ch, c.where)
				}
				names += ch.Name + ","
			}
			if !strings.Contains(names, c.check+",") {
				t.Errorf("checks %s lack %s", names, c.check)
			}
			if r := s.verifyExport(n.ID); !strings.Contains(r, "is entry 0 of 1") {
				t.Errorf("export report:\n%s", r)
			}
			if env := s.outbox.certificateOf(id, "node.decommission.completed"); env == "" {
				t.Error("the completed event carries no certificate")
			} else if _, err := cert.Verify(context.Background(), []byte(env), []ed25519.PublicKey{siteKey.Public().(ed25519.PublicKey)}); err != nil {
				t.Errorf("the event's certificate: %v", err)
			}
		})
	}
}

// A failed clean validation quarantines the node and certifies the
// failure: outcome quarantined, the failing check's verdict fail, and no
// completion certificate.
func TestQuarantineIsCertifiedAsAFailure(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c22u02", "10.0.22.2")
	s.runAgent(n.ID, func(tk lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
		return result(tk, tk.Type != lifecycle.TaskValidateClean), true
	})
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset})
	if r := s.wait(id, 30*time.Second); r.Status != lifecycle.JobFailedManualIntervention {
		t.Fatalf("%s at %s: %s", r.Status, r.CurrentStage, r.ErrorMessage)
	}
	if _, ok := s.certOf(id); ok {
		t.Fatal("a quarantined run has a completion certificate")
	}
	got, ok := s.certOf(cert.QuarantineKey(id))
	if !ok || got.Predicate.Outcome != cert.OutcomeQuarantined {
		t.Fatalf("quarantine certificate %v: %+v", ok, got.Predicate)
	}
	failed := false
	for _, ch := range got.Predicate.Checks {
		failed = failed || (ch.Name == "gpu_memory" && ch.Verdict == "fail" && ch.Where == cert.InBandTenantOS)
	}
	if !failed {
		t.Errorf("checks %+v do not show gpu_memory failed in band", got.Predicate.Checks)
	}
	s.verifyExport(n.ID)
}

// Two turnovers of one node chain: the second names the first.
func TestTurnoversOfOneNodeChain(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c22u03", "10.0.22.3")
	s.runAgent(n.ID, cleanHost)
	var ids []string
	for range 2 {
		id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset})
		if r := s.wait(id, 30*time.Second); r.Status != lifecycle.JobCompleted {
			t.Fatalf("%s at %s: %s", r.Status, r.CurrentStage, r.ErrorMessage)
		}
		ids = append(ids, id)
	}
	first, _ := s.certOf(ids[0])
	second, _ := s.certOf(ids[1])
	if second.Predicate.Previous == "" || first.Predicate.Previous != "" {
		t.Fatalf("previous: first %q, second %q", first.Predicate.Previous, second.Predicate.Previous)
	}
	if r := s.verifyExport(n.ID); !strings.Contains(r, "chain: 2 certificates") {
		t.Errorf("export report:\n%s", r)
	}
}

// certificateOf waits up to 5 s for run's event of type typ (published
// after the run's end is committed) and returns its certificate.
func (o *memOutbox) certificateOf(runID, typ string) string {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		o.mu.Lock()
		for _, e := range o.byID {
			if e.RunID == runID && string(e.Type) == typ {
				o.mu.Unlock()
				var d struct {
					Certificate json.RawMessage `json:"certificate"`
				}
				_ = json.Unmarshal(e.Data, &d)
				return string(d.Certificate)
			}
		}
		o.mu.Unlock()
	}
	return ""
}

// An onboarding that turns its node active certifies the acceptance:
// mode onboarding_acceptance, every stage measured after the deploy.
func TestOnboardingAcceptanceIsCertified(t *testing.T) {
	s := newSite(t)
	s.host("10.176.16.129", maassim.HostSpec{})
	id := s.onboard("c07u44", "10.176.16.129")
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("run %s at %s: %s", r.Status, r.CurrentStage, r.ErrorMessage)
	}
	got, ok := s.certOf(id)
	if !ok || got.Predicate.Mode != "onboarding_acceptance" || got.Node.NodeID != r.NodeID || got.Node.MAASSystemID != r.MaasSystemID {
		t.Fatalf("certificate %v: %+v", ok, got)
	}
	last := got.Predicate.Checks[len(got.Predicate.Checks)-1]
	if last.Name != "stage:onboarding_acceptance" || last.Where != cert.AfterRedeploy {
		t.Errorf("last check %+v", last)
	}
}
