package maassim_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/maas/maassim"
)

const testKey = "ck1:tk1:ts-secret-1"

type site struct {
	sim   *maassim.Sim
	srv   *httptest.Server
	clock *maassim.ManualClock
}

// newSite starts a simulator on a ManualClock set to wall time (clients
// sign with wall-clock timestamps) with machines Ready machines.
func newSite(t *testing.T, machines int) *site {
	t.Helper()
	clock := maassim.NewManualClock(time.Now())
	sim, err := maassim.New(maassim.Options{APIKey: testKey, Clock: clock, Seed: 1,
		CustomImages: []string{"gpuaas-ubuntu-2204"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < machines; i++ {
		if _, err := sim.AddMachine(maassim.HostSpec{}, "", maassim.StatusReady); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	return &site{sim: sim, srv: srv, clock: clock}
}

// advance moves the clock and settles the simulator.
func (s *site) advance(d time.Duration) {
	s.clock.Advance(d)
	s.sim.Step(context.Background())
}
