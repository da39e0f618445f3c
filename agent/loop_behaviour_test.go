package agent

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/agent/transport/faketransport"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func TestBackoffGrowsWithJitterAndCaps(t *testing.T) {
	tr := &faketransport.Transport{EnrollFn: func(wire.EnrollRequest) (wire.CertResponse, error) {
		return wire.CertResponse{}, errors.New("connection refused")
	}}
	r := newRig(t, tr)
	r.run(t)
	for range 5 {
		r.clock.WaitForSleeper()
		r.clock.Advance(time.Minute)
	}
	// equal jitter with rand 0.5: 3/4 of 1s, 2s, 4s, 8s, 8s (capped)
	want := []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second, 6 * time.Second, 6 * time.Second}
	if diff := cmp.Diff(want, r.clock.Slept()[:5]); diff != "" {
		t.Errorf("backoff waits (-want +got):\n%s", diff)
	}
	// Without Options.Rand the agent's waits vary within the band.
	a, err := New(Options{Config: r.a.o.Config})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[time.Duration]bool{}
	for range 50 {
		d := a.retryDelays().Next()
		if d < 500*time.Millisecond || d >= time.Second {
			t.Fatalf("default jitter gave %v, want within [0.5s, 1s)", d)
		}
		seen[d] = true
	}
	if len(seen) < 2 {
		t.Error("the default jitter gave the same first wait 50 times")
	}
}

func TestReenrollsWithFreshTokenWhenIdentityLost(t *testing.T) {
	is := newIssuer(t)
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	tr.EnrollFn = func(req wire.EnrollRequest) (wire.CertResponse, error) {
		is.mu.Lock()
		is.seen = append(is.seen, req.Token)
		is.mu.Unlock()
		return is.sign(req.CSR, r.clock.Now())
	}
	waits := 0
	tr.WaitFn = func() (*wire.Task, error) {
		waits++
		if waits == 1 {
			r.writeToken(t, "token-2") // the operator issued a new token
			return nil, &wire.Problem{Status: 401, Title: "Unauthorized"}
		}
		time.Sleep(time.Millisecond)
		return nil, nil
	}
	r.run(t)
	r.clock.WaitForSleeper() // the backoff after the 401
	r.clock.Advance(time.Minute)
	deadline := time.Now().Add(10 * time.Second)
	for r.a.Stats().Enrollments < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	if diff := cmp.Diff([]string{"token-1", "token-2"}, is.seen); diff != "" {
		t.Errorf("tokens presented (-want +got):\n%s", diff)
	}
}

func TestRenewsBeforeExpiry(t *testing.T) {
	is := newIssuer(t)
	tr := &faketransport.Transport{}
	r := newRig(t, tr)
	tr.EnrollFn = func(req wire.EnrollRequest) (wire.CertResponse, error) { return is.sign(req.CSR, r.clock.Now()) }
	renewed := make(chan struct{}, 1)
	tr.RenewFn = func(req wire.RenewRequest) (wire.CertResponse, error) {
		renewed <- struct{}{}
		return is.sign(req.CSR, r.clock.Now())
	}
	tr.WaitFn = func() (*wire.Task, error) {
		r.clock.Advance(10 * time.Minute) // each poll takes a while
		return nil, nil
	}
	r.run(t)
	select {
	case <-renewed:
	case <-time.After(10 * time.Second):
		t.Fatal("no renewal")
	}
	if got := r.clock.Now().Sub(t0); got < 2*time.Hour || got >= 3*time.Hour {
		t.Errorf("renewed %v into a 3h certificate, want after 2/3 and before expiry", got)
	}
}
