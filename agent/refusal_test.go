package agent

import (
	"bytes"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/transport/faketransport"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// logBuffer collects the agent's log lines, safe for its goroutine.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) count(sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), sub)
}

func (r *rig) captureLog() *logBuffer {
	l := &logBuffer{}
	r.a.log = slog.New(slog.NewJSONHandler(l, nil))
	return l
}

func (r *rig) tokenExists() bool {
	_, err := os.Stat(hostroot.Root(r.root).Path(config.Defaults().EnrollmentTokenPath))
	return err == nil
}

// waitFor polls cond on the wall clock (the agent runs on the fake one).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

var superseded = &wire.Problem{Status: 401, Title: "Unauthorized", Code: "unauthorized",
	Detail: "the client certificate was superseded by a newer one; enroll again with a new token"}

// TestRevokedAgentBacksOffLogsOnceAndReenrollsWithANewToken: an agent
// whose certificate the daemon refuses says so once in its log, counts
// every refusal, backs off to the cap, and enrolls again as soon as an
// operator places a new token, which it removes once enrolled.
func TestRevokedAgentBacksOffLogsOnceAndReenrollsWithANewToken(t *testing.T) {
	is := newIssuer(t)
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	logs := r.captureLog()
	var mu sync.Mutex
	var tokens []string
	tr.EnrollFn = func(req wire.EnrollRequest) (wire.CertResponse, error) {
		mu.Lock()
		tokens = append(tokens, req.Token)
		mu.Unlock()
		return is.sign(req.CSR, r.clock.Now())
	}
	var revoked sync.Mutex // held while the daemon refuses the certificate
	refusedNow := true
	tr.WaitFn = func() (*wire.Task, error) {
		revoked.Lock()
		defer revoked.Unlock()
		if refusedNow {
			return nil, superseded
		}
		time.Sleep(time.Millisecond)
		return nil, nil
	}
	r.run(t)
	for range 6 {
		r.clock.WaitForSleeper()
		r.clock.Advance(time.Minute)
	}
	if r.tokenExists() {
		t.Error("the spent enrollment token is still on the host")
	}
	// equal jitter with rand 0.5 over 1s..8s: the backoff grows to its cap
	want := []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second, 6 * time.Second, 6 * time.Second, 6 * time.Second}
	if diff := cmp.Diff(want, r.clock.Slept()[:6]); diff != "" {
		t.Errorf("waits while refused (-want +got):\n%s", diff)
	}
	if st := r.a.Stats(); st.Refusals < 6 || !st.Refused || st.Enrollments != 1 {
		t.Errorf("stats while refused = %+v, want >= 6 refusals, refused, one enrollment", st)
	}
	if n := logs.count("refuses this agent's certificate"); n != 1 {
		t.Errorf("refusal logged %d times over 6 refusals, want once", n)
	}
	if n := logs.count("agent step failed"); n != 0 {
		t.Errorf("refusals also logged as step failures %d times", n)
	}

	r.writeToken(t, "token-2") // an operator issued a new one
	revoked.Lock()
	refusedNow = false // the daemon accepts the new certificate
	revoked.Unlock()
	waitFor(t, "the second enrollment", func() bool { r.clock.Advance(time.Minute); return r.a.Stats().Enrollments == 2 })
	waitFor(t, "a poll after it", func() bool { return r.a.Stats().Polls > 0 })
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"token-1", "token-2"}, tokens); diff != "" {
		t.Errorf("tokens presented (-want +got):\n%s", diff)
	}
	if st := r.a.Stats(); st.Refused || r.tokenExists() {
		t.Errorf("after re-enrolling: refused %v, token file left %v; want neither", st.Refused, r.tokenExists())
	}
}

// TestEnrollHonoursRetryAfter: a rate-limited enrollment waits as long as
// the daemon asks, not the shorter backoff, and a random part of half as
// long again (the rig's Rand draws 0.5: a quarter), so that agents told
// the same Retry-After do not come back together; then it succeeds.
func TestEnrollHonoursRetryAfter(t *testing.T) {
	is := newIssuer(t)
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	calls := 0
	tr.EnrollFn = func(req wire.EnrollRequest) (wire.CertResponse, error) {
		calls++
		if calls == 1 {
			return wire.CertResponse{}, &wire.Problem{Status: 429, Title: "Too Many Requests", RetryAfter: 30 * time.Second}
		}
		return is.sign(req.CSR, r.clock.Now())
	}
	r.run(t)
	r.clock.WaitForSleeper()
	r.clock.Advance(37500 * time.Millisecond)
	waitFor(t, "the enrollment", func() bool { return r.a.Stats().Enrollments == 1 })
	if got := r.clock.Slept()[0]; got != 37500*time.Millisecond {
		t.Errorf("waited %v after a 429 with Retry-After 30s, want 37.5s (30s and a quarter of it)", got)
	}
}

// TestRefusedTokenIsNotSentAgain: a token the daemon refuses for good is
// logged once and not sent again until the operator replaces it.
func TestRefusedTokenIsNotSentAgain(t *testing.T) {
	is := newIssuer(t)
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	logs := r.captureLog()
	tr.EnrollFn = func(req wire.EnrollRequest) (wire.CertResponse, error) {
		if req.Token == "token-1" {
			return wire.CertResponse{}, &wire.Problem{Status: 409, Title: "Conflict", Detail: "enrollment token already used"}
		}
		return is.sign(req.CSR, r.clock.Now())
	}
	r.run(t)
	for range 4 {
		r.clock.WaitForSleeper()
		r.clock.Advance(time.Minute)
	}
	enrolls := 0
	for _, c := range tr.Calls() {
		if c == "enroll" {
			enrolls++
		}
	}
	if enrolls != 1 || r.a.Stats().EnrollRefusals != 1 {
		t.Errorf("a refused token was sent %d times (%d refusals counted), want once", enrolls, r.a.Stats().EnrollRefusals)
	}
	if a, b := logs.count("refused the enrollment token"), logs.count("no new enrollment token"); a != 1 || b != 1 {
		t.Errorf("logged the token refusal %d and the wait for a token %d times, want once each", a, b)
	}
	r.writeToken(t, "token-2")
	waitFor(t, "the enrollment with the new token", func() bool { r.clock.Advance(time.Minute); return r.a.Stats().Enrollments == 1 })
	if r.tokenExists() {
		t.Error("the spent token file is still on the host")
	}
}
