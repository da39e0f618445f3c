package maas_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
	"github.com/jonboulle/clockwork"
)

const (
	consumerKey = "cons-Kq7"
	tokenKey    = "tok-Zz91"
	tokenSecret = "sekrit-8JwQ"
	apiKey      = consumerKey + ":" + tokenKey + ":" + tokenSecret
)

type env struct {
	sim      *maassim.Sim
	srv      *httptest.Server
	clock    *clockwork.FakeClock
	client   *maas.Client
	logs     *bytes.Buffer
	requests atomic.Int64
}

// newEnv starts a simulator (speed 100, manual clock) with n Ready
// machines and a client signing with the simulator's clock.
func newEnv(t testing.TB, n int) *env {
	t.Helper()
	e := &env{clock: clockwork.NewFakeClock(), logs: &bytes.Buffer{}}
	sim, err := maassim.New(maassim.Options{APIKey: apiKey, UserAPIKey: userKey, Clock: e.clock, Speed: 100, Seed: 3,
		CustomImages: []string{"gpuaas-ubuntu-2204"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, err := sim.AddMachine(maassim.HostSpec{NoBOSS: i%2 == 1}, "", maassim.StatusReady); err != nil {
			t.Fatal(err)
		}
	}
	e.sim = sim
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.requests.Add(1)
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(e.srv.Close)
	e.client = e.newClient(t, apiKey)
	return e
}

func (e *env) newClient(t testing.TB, key string) *maas.Client {
	t.Helper()
	c, err := maas.New(maas.Config{BaseURL: e.srv.URL + "/MAAS/", APIKey: lifecycle.Secret(key), Clock: e.clock,
		Logger:       slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		RetryBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	maas.RecordWaits(c) // retries go at once: the simulator's clock moves only by hand
	return c
}

// mac is the MAC address of a machine's first interface.
func (e *env) mac(t testing.TB, sid string) string {
	t.Helper()
	nics, err := e.client.NICs(context.Background(), sid)
	if err != nil || len(nics) == 0 {
		t.Fatalf("nics of %s: %v %v", sid, nics, err)
	}
	return nics[0].MAC
}

func (e *env) advance(d time.Duration) {
	e.clock.Advance(d)
	e.sim.Step(context.Background())
}
