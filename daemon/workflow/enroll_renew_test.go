package workflow_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// shortTokens issues the real enrollment tokens with a short TTL and
// remembers the last one's hash and expiry.
type shortTokens struct {
	pki.Enrollment
	ttl  time.Duration
	mu   sync.Mutex
	hash string
	exp  time.Time
}

func (s *shortTokens) IssueToken(ctx context.Context, nodeID string, p lifecycle.SitePolicy) (lifecycle.Secret, error) {
	p.EnrollmentTokenTTLSeconds = int(s.ttl / time.Second)
	tok, exp, err := s.PKI.IssueEnrollmentToken(ctx, s.Store, p, nodeID)
	s.mu.Lock()
	s.hash, s.exp = pki.HashToken(tok), exp
	s.mu.Unlock()
	return lifecycle.Secret(tok), err
}

func (s *shortTokens) issued() (string, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hash, s.exp
}

// Seed 001 §4.6: a host whose agent starts only after its enrollment
// token expired enrolls on the regenerated token, without a redeploy: the
// enrollment wait grants the renewal, the real agent renews its token
// through the agent API and enrolls with the successor.
func TestExpiredTokenIsRegeneratedWithoutARedeploy(t *testing.T) {
	s := newSite(t)
	withRealAgents(t, s)
	tokens := &shortTokens{Enrollment: s.deps.Enrollment.(pki.Enrollment), ttl: 2 * time.Second}
	s.deps.Enrollment = tokens
	boot := s.enroll
	s.enroll = func(b maassim.Boot) {
		go func() { // the host boots slowly: its agent starts after the token expired
			_, exp := tokens.issued()
			time.Sleep(time.Until(exp) + 200*time.Millisecond)
			boot(b)
		}()
	}
	s.host("10.176.18.20", maassim.HostSpec{})
	id := s.onboard("c09u20", "10.176.18.20")
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobCompleted {
		t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	ctx := context.Background()
	n, err := s.store.GetNode(ctx, r.NodeID)
	must(t, err)
	if n.Status != lifecycle.NodeActive || n.EnrolledAt == nil {
		t.Fatalf("node after enrollment on a renewed token: %s %v", n.Status, n.EnrolledAt)
	}
	first, _ := tokens.issued()
	tok, err := s.store.NodeEnrollmentToken(ctx, r.NodeID)
	must(t, err)
	if tok.Hash == first || tok.UsedAt == nil || tok.UsedBy == "" {
		t.Fatalf("the agent did not enroll on a successor of the deployed token: %+v", tok)
	}
	if got := s.log.count(r.MaasSystemID, "POST", "deploy"); got != 1 {
		t.Fatalf("deploys = %d, want 1 (no redeploy)", got)
	}
	evs, err := s.store.ListRunEvents(ctx, id, 0, 0)
	must(t, err)
	var last lifecycle.RunEvent // the enrollment stage's last event; the acceptance follows it
	for _, e := range evs {
		if e.Stage == lifecycle.StageWaitForAgentEnrollment {
			last = e
		}
	}
	if last.Details["enrollment_token_renewal"] == "" {
		t.Fatalf("the enrollment event does not record the renewal: %+v", last)
	}
}

// fakeClockTokens issues tokens expiring on the runner's fake clock.
type fakeClockTokens struct {
	st  lifecycle.EnrollmentStore
	fc  *clockwork.FakeClock
	ttl time.Duration
}

func (f fakeClockTokens) IssueToken(ctx context.Context, nodeID string, _ lifecycle.SitePolicy) (lifecycle.Secret, error) {
	tok, err := lifecycle.NewID(nil)
	if err != nil {
		return "", err
	}
	return lifecycle.Secret(tok), f.st.CreateEnrollmentToken(ctx, lifecycle.EnrollmentToken{Hash: pki.HashToken(tok),
		NodeID: nodeID, ExpiresAt: f.fc.Now().Add(f.ttl)})
}

// The renewal is granted as the token nears expiry, for the wait's
// attempt, and extended when the wait tries again; an agent that never
// comes still ends the run in agent_enrollment_failure after the second
// attempt, with MAAS left alone (one deploy, no release).
func TestTokenRenewalGrantIsBoundedByTheWait(t *testing.T) {
	fc := clockwork.NewFakeClock()
	s := newSiteWith(t, siteOptions{clock: fc})
	s.deps.Enrollment = fakeClockTokens{st: s.store, fc: fc, ttl: 10 * time.Minute}
	s.enroll = func(maassim.Boot) {} // the agent never calls
	s.host("10.0.9.31", maassim.HostSpec{})
	id := s.onboard("c12u31", "10.0.9.31")
	ctx := context.Background()
	timeout := lifecycle.DefaultSitePolicy("site-1").TimeoutFor("enrollment_timeout")
	granted := func(attempt int) {
		t.Helper()
		s.parkedAt(id, lifecycle.StageWaitForAgentEnrollment, attempt, true)
		deadline := time.Now().Add(10 * time.Second)
		for {
			r := s.run(id)
			tok, err := s.store.NodeEnrollmentToken(ctx, r.NodeID)
			must(t, err)
			if tok.RenewBy != nil && r.StageStartedAt != nil && tok.RenewBy.Equal(r.StageStartedAt.Add(timeout)) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("attempt %d: grant %v, want until %v\n%s", attempt, tok.RenewBy, r.StageStartedAt.Add(timeout), s.events(id))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	s.parkedAt(id, lifecycle.StageWaitForAgentEnrollment, 1, true)
	if tok, _ := s.store.NodeEnrollmentToken(ctx, s.run(id).NodeID); tok.RenewBy != nil {
		t.Fatal("a renewal was granted for a token far from expiry")
	}
	fc.Advance(10 * time.Minute)
	granted(1)
	fc.Advance(timeout + time.Minute)
	s.parkedAt(id, lifecycle.StageWaitForAgentEnrollment, 2, false)
	fc.Advance(time.Minute)
	granted(2)
	fc.Advance(timeout + time.Minute)
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailAgentEnrollment ||
		r.ErrorDetails["enrollment_token_renewal"] == "" {
		t.Fatalf("got %s/%s (%s) details %v\n%s", r.Status, r.FailureClass, r.ErrorMessage, r.ErrorDetails, s.events(id))
	}
	if d, rel := s.log.count(r.MaasSystemID, "POST", "deploy"), s.log.count(r.MaasSystemID, "POST", "release"); d != 1 || rel != 0 {
		t.Fatalf("deploys %d, releases %d; want 1 and 0", d, rel)
	}
}
