package runner

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// harness is a runner on a real bbolt store with a fake clock.
type harness struct {
	t      *testing.T
	path   string
	store  *bolt.Store
	clock  *clockwork.FakeClock
	def    *Def
	runner *Runner
	cancel context.CancelFunc
	done   chan struct{}
	n      int
	// observe, when set before start, receives the stage observations.
	observe func(StageObservation)
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newHarness(t *testing.T, def *Def) *harness {
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "s.db"), clock: clockwork.NewFakeClockAt(t0), def: def}
	h.open()
	h.must(h.store.CreateSite(context.Background(), lifecycle.Site{ID: "site-1", Name: "dc1", RegionCode: "dc1",
		APIBaseURL: "http://10.0.0.1:5240/MAAS", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(),
		lifecycle.DefaultSitePolicy("site-1")))
	t.Cleanup(func() { h.stop(); h.store.Close() })
	return h
}

func (h *harness) open() {
	s, err := bolt.Open(h.path, bolt.Options{Now: h.clock.Now})
	h.must(err)
	h.store = s
}

func (h *harness) must(err error) {
	h.t.Helper()
	if err != nil {
		h.t.Fatal(err)
	}
}

// start runs a fresh runner as holder "daemon-a".
func (h *harness) start() {
	h.t.Helper()
	h.build()
	h.runBuilt()
}

// build makes a fresh runner without running it. The harness leaves
// Options.Jitter unset, so tests see the production jitter.
func (h *harness) build() {
	h.runner = New(Options{Store: h.store, Defs: func(lifecycle.Run) (*Def, error) { return h.def, nil },
		Clock: h.clock, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Holder: "daemon-a",
		Backoff: time.Second, MaxBackoff: 8 * time.Second, UpstreamPatience: 30 * time.Second, Observe: h.observe})
}

// runBuilt runs the runner made by build and waits until it is ready.
func (h *harness) runBuilt() {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.done = cancel, make(chan struct{})
	go func() { h.runner.Run(ctx); close(h.done) }()
	select {
	case <-h.runner.Ready():
	case <-time.After(5 * time.Second):
		h.t.Fatal("runner not ready")
	}
}

// stop shuts the runner down the way SIGTERM would.
func (h *harness) stop() {
	if h.cancel != nil {
		h.cancel()
		<-h.done
		h.cancel = nil
	}
}

// submit creates a pending run and hands it to the runner.
func (h *harness) submit(ipmi string) string {
	h.t.Helper()
	id := h.create(ipmi)
	h.runner.Submit(id)
	return id
}

// create creates a pending run without telling the runner.
func (h *harness) create(ipmi string) string {
	h.t.Helper()
	h.n++
	id := fmt.Sprintf("run-%03d", h.n)
	h.clock.Advance(time.Millisecond) // distinct request times
	h.must(h.store.CreateRun(context.Background(), lifecycle.Run{ID: id, Kind: lifecycle.RunOnboarding, SiteID: "site-1",
		Hostname: "h" + id, IPMIIP: ipmi, Status: lifecycle.JobPending}))
	return id
}

func (h *harness) run(id string) lifecycle.Run {
	h.t.Helper()
	r, err := h.store.GetRun(context.Background(), id)
	h.must(err)
	return r
}

func (h *harness) events(id string) []string {
	evs, err := h.store.ListRunEvents(context.Background(), id, 0, 0)
	h.must(err)
	out := []string{}
	for _, e := range evs {
		out = append(out, fmt.Sprintf("%s#%d:%s", e.Stage, e.Attempt, e.Status))
	}
	return out
}

// eventually waits (in real time) for cond; the runner works asynchronously.
func (h *harness) eventually(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (h *harness) waitStatus(id string, st lifecycle.JobState) lifecycle.Run {
	h.t.Helper()
	h.eventually(fmt.Sprintf("run %s %s", id, st), func() bool { return h.run(id).Status == st })
	return h.run(id)
}

// waitParked waits until the loop itself has parked the run (journaled
// and timer armed), so that moving the clock afterwards fires its timer.
func (h *harness) waitParked(id string) lifecycle.Run {
	h.t.Helper()
	h.eventually("run "+id+" parked", func() bool { return h.parked(id) })
	return h.run(id)
}

func (h *harness) parked(id string) bool {
	var p bool
	h.must(h.runner.call(context.Background(), func() {
		rs := h.runner.runs[id]
		p = rs != nil && !rs.executing && rs.timer != nil
	}))
	return p
}

// sync waits until the loop has handled everything sent before.
func (h *harness) sync() {
	h.t.Helper()
	h.must(h.runner.call(context.Background(), func() {}))
}

// counter counts stage executions per run.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) inc(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[id]++
	return c.n[id]
}

func (c *counter) get(id string) int { c.mu.Lock(); defer c.mu.Unlock(); return c.n[id] }

func ok(msg string) StageFunc {
	return func(context.Context, *Context) (Outcome, error) { return Done(msg), nil }
}
