package workflow_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// Cancel compensates (seed 001 §4.6): the machine goes back to Ready in
// MAAS (abort while deploying, release once deployed), the node record
// that the run created is deleted when its agent never enrolled, with its
// enrollment token, and kept (quarantined) when the agent did.
func TestCancelCompensates(t *testing.T) {
	cases := []struct {
		name            string
		when            lifecycle.Stage // where the run is when cancelled
		enrolled        bool            // the agent enrolled before the cancel
		aborts, release int
	}{
		{"while deploying", lifecycle.StageDeployViaMaas, false, 1, 1},
		{"deployed, agent not enrolled", lifecycle.StageWaitForAgentEnrollment, false, 0, 1},
		{"deployed, agent enrolled", lifecycle.StageWaitForAgentEnrollment, true, 0, 1},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			tokens := &tokenLog{issuer: tokenIssuer{s.store}}
			s.deps.Enrollment = tokens
			s.enroll = func(maassim.Boot) {} // the agent does not call (yet)
			host, ip := "c09u0"+string(rune('1'+i)), "10.0.9.4"+string(rune('1'+i))
			sid := readyMachine(t, s, host, ip, maassim.HostSpec{})
			cancelled := make(chan error, 1)
			cancel := func() {
				_, err := s.runner.Act(context.Background(), runner.ActionRequest{RunID: "run-0001",
					Action: lifecycle.ActionCancel, Actor: "test", Role: "operator", Reason: "wrong rack"})
				cancelled <- err
			}
			if c.when == lifecycle.StageDeployViaMaas {
				afterDeploy(s, func(string) { cancel() })
			}
			id := s.onboard(host, ip)
			if c.when == lifecycle.StageWaitForAgentEnrollment {
				s.parkedAt(id, c.when, 1, true)
				if c.enrolled { // enrolled, the run not woken yet
					r := s.run(id)
					_, err := s.store.UpdateNode(context.Background(), r.NodeID, func(x *lifecycle.Node) error {
						now := time.Now()
						x.EnrolledAt = &now
						return nil
					})
					must(t, err)
				}
				cancel()
			}
			must(t, <-cancelled)
			r := s.wait(id, 60*time.Second)
			if r.Status != lifecycle.JobCancelled || r.NodeID == "" {
				t.Fatalf("run %s at %s (node %q): %s\n%s", r.Status, r.CurrentStage, r.NodeID, r.ErrorMessage, s.events(id))
			}
			if a, rel := s.log.count(sid, "POST", "abort"), s.log.count(sid, "POST", "release"); a != c.aborts || rel != c.release {
				t.Errorf("%d aborts, %d releases; want %d, %d", a, rel, c.aborts, c.release)
			}
			s.machineReaches(t, sid, lifecycle.MaasReady)
			s.checkNodeAfterCancel(t, r, tokens, c.enrolled)
		})
	}
}

// checkNodeAfterCancel: a never-enrolled node is gone with its tokens and
// the deletion is journalled; an enrolled one is quarantined.
func (s *site) checkNodeAfterCancel(t *testing.T, r lifecycle.Run, tokens *tokenLog, enrolled bool) {
	t.Helper()
	ctx := context.Background()
	n, err := s.store.GetNode(ctx, r.NodeID)
	if enrolled {
		if err != nil || n.Status != lifecycle.NodeQuarantined {
			t.Fatalf("enrolled node after cancel: %s, %v; want quarantined", n.Status, err)
		}
		return
	}
	if lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
		t.Fatalf("node %s after cancel: %s, %v; want deleted", r.NodeID, n.Status, err)
	}
	for _, h := range tokens.hashes() {
		if _, err := s.store.ConsumeEnrollmentToken(ctx, h, r.NodeID, "agent-key"); lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
			t.Errorf("enrollment token still answers: %v", err)
		}
	}
	if len(tokens.hashes()) == 0 {
		t.Error("no enrollment token was issued")
	}
	if d := s.detail(r.ID, lifecycle.StageRenderCloudInit, "node_deleted"); d == "" {
		t.Errorf("the deletion is not journalled\n%s", s.events(r.ID))
	}
}

// machineReaches waits until MAAS reports the machine in status want.
func (s *site) machineReaches(t *testing.T, sid string, want lifecycle.MaasStatus) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		m, err := s.client(t).Machine(context.Background(), sid)
		must(t, err)
		if m.Status == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("machine %s is %s, want %s", sid, m.Status, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// tokenLog issues enrollment tokens and remembers their hashes.
type tokenLog struct {
	issuer tokenIssuer
	mu     sync.Mutex
	issued []string
}

func (l *tokenLog) IssueToken(ctx context.Context, nodeID string, p lifecycle.SitePolicy) (lifecycle.Secret, error) {
	tok, err := l.issuer.IssueToken(ctx, nodeID, p)
	if err == nil {
		sum := sha256.Sum256([]byte(tok.Reveal()))
		l.mu.Lock()
		l.issued = append(l.issued, hex.EncodeToString(sum[:]))
		l.mu.Unlock()
	}
	return tok, err
}

func (l *tokenLog) hashes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string{}, l.issued...)
}
