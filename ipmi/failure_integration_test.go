//go:build integration

package ipmi_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/ipmi"
)

// recordingClock is a fake clock whose After fires at once and records
// every wait the retry loop asks for.
type recordingClock struct {
	clockwork.Clock
	mu    sync.Mutex
	waits []time.Duration
}

func (c *recordingClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	return c.Clock.After(0)
}

func TestWrongPasswordFailsFastWithoutRetry(t *testing.T) {
	sim := startSim(t)
	clock := &recordingClock{Clock: clockwork.NewFakeClock()}
	reg := prometheus.NewRegistry()
	var logs bytes.Buffer
	c := newClient(t, ipmi.Config{Timeout: 10 * time.Second, Attempts: 5}, ipmi.Options{
		Clock:   clock,
		Metrics: ipmi.NewMetrics(reg),
		Log:     slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	bad := sim.target
	bad.Pass = "wrong-pass-2718"

	start := time.Now()
	_, err := c.BMC(bad).PowerState(context.Background())
	elapsed := time.Since(start)

	t.Logf("error: %v", err)
	if code := lifecycle.ErrorCode(err); code != lifecycle.CodeUnauthorized || lifecycle.IsRetryable(err) {
		t.Fatalf("error = %v (code %q), want a non-retryable unauthorized error", err, code)
	}
	if elapsed > 2*time.Second {
		t.Errorf("bad credentials took %s, want a fast failure", elapsed)
	}
	if len(clock.waits) != 0 || counterSum(t, reg, "maas_sidecar_bmc_retries_total") != 0 {
		t.Errorf("retried after bad credentials: waits %v", clock.waits)
	}
	for _, secret := range []string{bad.Pass, sim.target.Pass} {
		if strings.Contains(err.Error(), secret) || strings.Contains(logs.String(), secret) {
			t.Errorf("a password leaked into the error or the logs")
		}
	}
	if sim.file(t, "log") != "" {
		t.Errorf("the simulator changed state: %q", sim.file(t, "log"))
	}
}

func TestUnreachableBMCIsUnavailableWithinTimeout(t *testing.T) {
	const timeout = 700 * time.Millisecond
	clock := &recordingClock{Clock: clockwork.NewFakeClock()}
	reg := prometheus.NewRegistry()
	c := newClient(t, ipmi.Config{Timeout: timeout, Attempts: 2}, ipmi.Options{Clock: clock, Metrics: ipmi.NewMetrics(reg)})
	nobody := ipmi.Target{Host: "127.0.0.1", Port: freeUDPPort(t), User: "admin", Pass: "x"}

	start := time.Now()
	err := c.BMC(nobody).SetPower(context.Background(), ipmi.ActionOn)
	elapsed := time.Since(start)

	t.Logf("error: %v", err)
	if !lifecycle.IsRetryable(err) {
		t.Fatalf("error = %v (code %q), want unavailable", err, lifecycle.ErrorCode(err))
	}
	// Two attempts of at most timeout each; the clock does not really wait.
	if limit := 2*timeout + 500*time.Millisecond; elapsed > limit {
		t.Errorf("took %s, want at most %s", elapsed, limit)
	}
	if len(clock.waits) != 1 || counterSum(t, reg, "maas_sidecar_bmc_retries_total") != 1 {
		t.Errorf("want exactly one retry of the transient failure, waits %v", clock.waits)
	}
}

// counterSum adds up every series of the named counter.
func counterSum(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}
