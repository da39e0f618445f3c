package agent

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/state"
	"github.com/gpuaas/maas-sidecar/agent/transport/faketransport"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

var (
	expired    = &wire.Problem{Status: 409, Title: "Conflict", Code: wire.ProblemTokenExpired, Detail: "enrollment token expired"}
	notGranted = &wire.Problem{Status: 409, Title: "Conflict", Code: wire.ProblemRenewalNotGranted,
		Detail: "no renewal of this enrollment token is granted now"}
)

// renewingDaemon answers token-1 as expired and enrolls the token whose
// hash a renewal registered; the first `refuse` renewals are not granted.
type renewingDaemon struct {
	mu       sync.Mutex
	refuse   int
	renewals []wire.TokenRenewRequest
	enrolled []string
	mode     os.FileMode // of the token file when the successor enrolled
}

func (d *renewingDaemon) script(t *testing.T, tr *faketransport.Transport, r *rig) {
	is := newIssuer(t)
	tr.TokenFn = func(req wire.TokenRenewRequest) (wire.TokenRenewResponse, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.renewals = append(d.renewals, req)
		if len(d.renewals) <= d.refuse {
			return wire.TokenRenewResponse{}, notGranted
		}
		return wire.TokenRenewResponse{ExpiresAt: r.clock.Now().Add(2 * time.Hour)}, nil
	}
	tr.EnrollFn = func(req wire.EnrollRequest) (wire.CertResponse, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.enrolled = append(d.enrolled, req.Token)
		n := len(d.renewals)
		if req.Token == "token-1" || n <= d.refuse || wire.TokenHash(req.Token) != d.renewals[n-1].NextTokenHash {
			return wire.CertResponse{}, expired
		}
		if fi, err := os.Stat(r.tokenPath()); err == nil {
			d.mode = fi.Mode().Perm()
		}
		return is.sign(req.CSR, r.clock.Now())
	}
}

func (r *rig) tokenPath() string { return r.a.tokenPath() }

// An agent told its token expired asks for a renewal, keeps asking with
// backoff (logged once) until the daemon grants it, sends only the hash
// of the successor it made, writes the successor to the token file and
// enrolls with it.
func TestExpiredTokenIsRenewedAndEnrolls(t *testing.T) {
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	logs := r.captureLog()
	d := &renewingDaemon{refuse: 3}
	d.script(t, tr, r)
	r.run(t)
	waitFor(t, "the enrollment", func() bool { r.clock.Advance(time.Minute); return r.a.Stats().Enrollments == 1 })
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.renewals) != 4 {
		t.Fatalf("renewals asked %d, want 4 (3 not granted, then granted)", len(d.renewals))
	}
	hash := d.renewals[0].NextTokenHash
	for _, req := range d.renewals {
		if req.Token != "token-1" || req.NextTokenHash != hash || req.NodeID != "node-1" {
			t.Errorf("renewal %+v, want token-1 and one successor hash throughout", req)
		}
	}
	last := d.enrolled[len(d.enrolled)-1]
	if last == "token-1" || wire.TokenHash(last) != hash {
		t.Errorf("enrolled with %q, want the successor of hash %s", last, hash)
	}
	if d.mode != 0o600 {
		t.Errorf("the successor's token file has mode %v, want 0600", d.mode)
	}
	if n := logs.count("asking the daemon to renew it"); n != 1 {
		t.Errorf("the wait for a grant was logged %d times over 3 refusals, want once", n)
	}
	if logs.count(last) != 0 || logs.count("token-1") != 0 {
		t.Error("a token reached the log")
	}
	if r.tokenExists() || fileExists(filepath.Join(r.root, "state", state.SuccessorFile)) {
		t.Error("the spent successor is still on the host")
	}
}

// A renewal whose answer was lost (the connection dropped after the
// daemon renewed) is asked again with the same successor, kept in the
// state directory, which the daemon recognises.
func TestRenewalAfterALostAnswerSendsTheSameSuccessor(t *testing.T) {
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	d := &renewingDaemon{}
	d.script(t, tr, r)
	granted := tr.TokenFn
	tr.TokenFn = func(req wire.TokenRenewRequest) (wire.TokenRenewResponse, error) {
		if _, err := granted(req); err != nil {
			t.Error(err)
		}
		return wire.TokenRenewResponse{}, errors.New("connection reset by peer") // renewed, answer lost
	}
	r.run(t)
	waitFor(t, "a renewal", func() bool { d.mu.Lock(); defer d.mu.Unlock(); return len(d.renewals) > 0 })
	tr.TokenFn = granted
	waitFor(t, "the enrollment", func() bool { r.clock.Advance(time.Minute); return r.a.Stats().Enrollments == 1 })
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.renewals) < 2 || d.renewals[0].NextTokenHash != d.renewals[len(d.renewals)-1].NextTokenHash {
		t.Fatalf("renewals %+v, want the same successor again", d.renewals)
	}
}

// A renewal refused for good (the token was spent, superseded, or is
// another node's) marks the token refused: it is not sent again.
func TestRefusedRenewalMarksTheTokenRefused(t *testing.T) {
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	tr.EnrollFn = func(wire.EnrollRequest) (wire.CertResponse, error) { return wire.CertResponse{}, expired }
	tr.TokenFn = func(wire.TokenRenewRequest) (wire.TokenRenewResponse, error) {
		return wire.TokenRenewResponse{}, &wire.Problem{Status: 409, Title: "Conflict", Code: "conflict", Detail: "enrollment token was already used"}
	}
	r.run(t)
	for range 4 {
		r.clock.WaitForSleeper()
		r.clock.Advance(time.Minute)
	}
	calls := map[string]int{}
	for _, c := range tr.Calls() {
		calls[c]++
	}
	if calls["enroll"] != 1 || calls["renew_token"] != 1 || r.a.Stats().EnrollRefusals != 1 {
		t.Errorf("calls %v, refusals %d; want one enrollment, one renewal, one refusal", calls, r.a.Stats().EnrollRefusals)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
