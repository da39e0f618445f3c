package runner

import (
	"context"
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

// fleet is several runners ("daemons") over one shared store, as with a
// replicated store, on one simulated wall clock. Each daemon has its own
// timers, so that a paused daemon (SIGSTOP) sees time move on when it
// resumes while none of its timers ran meanwhile.
type fleet struct {
	t     *testing.T
	wall  *clockwork.FakeClock
	store *bolt.Store
	all   []*daemon
}

// pclock is a daemon's clock: the wall's time, its own timers.
type pclock struct {
	*clockwork.FakeClock // timers
	wall                 *clockwork.FakeClock
}

func (c pclock) Now() time.Time                  { return c.wall.Now() }
func (c pclock) Since(t time.Time) time.Duration { return c.wall.Since(t) }
func (c pclock) Until(t time.Time) time.Duration { return c.wall.Until(t) }

// daemon is one runner of the fleet.
type daemon struct {
	name   string
	timers *clockwork.FakeClock
	runner *Runner
	store  *recStore
	leases chan LeaseEvent
	paused bool
	thaw   chan struct{} // closed to resume a paused loop
	cancel context.CancelFunc
	done   chan struct{}
}

func newFleet(t *testing.T) *fleet {
	f := &fleet{t: t, wall: clockwork.NewFakeClockAt(t0)}
	s, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{Now: f.wall.Now})
	f.must(err)
	f.store = s
	f.must(s.CreateSite(context.Background(), lifecycle.Site{ID: "site-1", Name: "dc1", RegionCode: "dc1",
		APIBaseURL: "http://10.0.0.1:5240/MAAS", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(),
		lifecycle.DefaultSitePolicy("site-1")))
	t.Cleanup(func() {
		for _, d := range f.all {
			f.stop(d)
		}
		s.Close()
	})
	return f
}

func (f *fleet) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// start runs a daemon named name with workflow def; scan is its
// Options.ScanInterval and sharedWakeKeys its Options.SharedWakeKeys.
func (f *fleet) start(name string, def *Def, scan time.Duration, sharedWakeKeys ...string) *daemon {
	f.t.Helper()
	d := &daemon{name: name, timers: clockwork.NewFakeClockAt(f.wall.Now()), store: &recStore{Store: f.store},
		leases: make(chan LeaseEvent, 1024), done: make(chan struct{})}
	d.runner = New(Options{Store: d.store, Defs: func(lifecycle.Run) (*Def, error) { return def, nil },
		Clock: pclock{d.timers, f.wall}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Holder: name,
		Backoff: time.Second, MaxBackoff: 8 * time.Second, ScanInterval: scan, SharedWakeKeys: sharedWakeKeys,
		OnLease: func(e LeaseEvent) { d.leases <- e }})
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	go func() { d.runner.Run(ctx); close(d.done) }()
	select {
	case <-d.runner.Ready():
	case <-time.After(5 * time.Second):
		f.t.Fatalf("%s not ready", name)
	}
	f.all = append(f.all, d)
	return d
}

// stop shuts a daemon down (resuming it first if paused).
func (f *fleet) stop(d *daemon) {
	if d.paused {
		f.resume(d)
	}
	d.cancel()
	<-d.done
}

// pause freezes a daemon as SIGSTOP would: its loop takes no message and
// its timers stand still (stage goroutines are frozen by the test's own
// gates). The wall clock moves on.
func (f *fleet) pause(d *daemon) {
	f.t.Helper()
	in := make(chan struct{})
	d.thaw, d.paused = make(chan struct{}), true
	thaw := d.thaw
	d.runner.do(func() { close(in); <-thaw })
	<-in
}

// catchUp brings a paused daemon's timers to the wall time (they fire
// now, late, as after SIGCONT); the loop stays frozen until resume.
func (f *fleet) catchUp(d *daemon) { d.timers.Advance(f.wall.Now().Sub(d.timers.Now())) }

// resume is SIGCONT: late timers fire and the loop runs again.
func (f *fleet) resume(d *daemon) {
	f.catchUp(d)
	d.paused = false
	close(d.thaw)
}

// advance moves the wall and every running daemon's timers in steps of
// one second, letting each running loop settle after every step.
func (f *fleet) advance(total time.Duration) {
	f.t.Helper()
	for done := time.Duration(0); done < total; done += time.Second {
		step := min(time.Second, total-done)
		f.wall.Advance(step)
		for _, d := range f.all {
			if !d.paused {
				d.timers.Advance(step)
			}
		}
		time.Sleep(time.Millisecond) // timer goroutines post to their loops
		for _, d := range f.all {
			if !d.paused {
				f.sync(d)
			}
		}
	}
}

func (f *fleet) sync(d *daemon) {
	f.t.Helper()
	f.must(d.runner.call(context.Background(), func() {}))
}

// holds reports whether d's loop drives site.
func (f *fleet) holds(d *daemon, site string) bool {
	var held bool
	f.must(d.runner.call(context.Background(), func() { held = d.runner.sites[site] != nil }))
	return held
}

// recStore records the writes a daemon makes to the shared store.
type recStore struct {
	Store
	mu     sync.Mutex
	writes []string
}

func (s *recStore) record(op string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes = append(s.writes, op)
}

// since returns the writes after the first n.
func (s *recStore) since(n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.writes[n:]...)
}

func (s *recStore) count() int { s.mu.Lock(); defer s.mu.Unlock(); return len(s.writes) }

func (s *recStore) AdvanceRun(ctx context.Context, f lifecycle.Fence, id string, fn func(*lifecycle.Run) error, evs []lifecycle.RunEvent) (lifecycle.Run, []lifecycle.RunEvent, error) {
	s.record("AdvanceRun")
	return s.Store.AdvanceRun(ctx, f, id, fn, evs)
}

func (s *recStore) RenewLease(ctx context.Context, l lifecycle.Lease, ttl time.Duration) (lifecycle.Lease, error) {
	out, err := s.Store.RenewLease(ctx, l, ttl)
	s.record("RenewLease:" + string(lifecycle.ErrorCode(err)))
	return out, err
}

func (s *recStore) ClaimLease(ctx context.Context, site, holder string, ttl time.Duration) (lifecycle.Lease, error) {
	out, err := s.Store.ClaimLease(ctx, site, holder, ttl)
	s.record("ClaimLease:" + string(lifecycle.ErrorCode(err)))
	return out, err
}

func (s *recStore) AppendAudit(ctx context.Context, e lifecycle.AuditEntry) (lifecycle.AuditEntry, error) {
	s.record("AppendAudit")
	return s.Store.AppendAudit(ctx, e)
}

// flagSet is a set of strings safe for concurrent use.
type flagSet struct {
	mu sync.Mutex
	m  map[string]bool
}

func (s *flagSet) set(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]bool{}
	}
	s.m[k] = true
}

func (s *flagSet) get(k string) bool { s.mu.Lock(); defer s.mu.Unlock(); return s.m[k] }
