package runner

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// steps records which daemon ran which stage of which run, and how many
// steps of the site ran at once across all daemons.
type steps struct {
	mu      sync.Mutex
	log     []string
	running int
	most    int
}

func (s *steps) enter() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running++
	s.most = max(s.most, s.running)
}

func (s *steps) leave(entry string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running--
	s.log = append(s.log, entry)
}

func (s *steps) seen() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...), s.most
}

// homeDef is a three-stage workflow run by daemon name: the deploy of
// run-1 blocks at g (when given) while its step is in flight; every step
// is recorded in st.
func homeDef(name string, st *steps, m *fakeMaas, g *gate) *Def {
	step := func(stage string, act func(ctx context.Context, host string) error) StageFunc {
		return func(ctx context.Context, c *Context) (Outcome, error) {
			st.enter()
			err := act(ctx, c.Run.Hostname)
			st.leave(fmt.Sprintf("%s:%s:%s", name, c.Run.ID, stage))
			if err != nil {
				return Outcome{}, err
			}
			return Done(stage), nil
		}
	}
	return &Def{Name: "t", Stages: []StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: step("load", func(context.Context, string) error { return nil })},
		{Stage: lifecycle.StageDeployViaMaas, Run: step("deploy", func(ctx context.Context, host string) error {
			if g != nil && host == "hrun-1" {
				g.wait()
			}
			return m.deploy(ctx, host)
		})},
		{Stage: lifecycle.StageWaitForDeployed, Run: step("seed", func(context.Context, string) error { return nil })},
	}}
}

func (f *fleet) prefer(site, daemon string) {
	f.t.Helper()
	_, err := f.store.UpdateSite(context.Background(), site, func(s *lifecycle.Site) error { s.PreferredDaemon = daemon; return nil })
	f.must(err)
}

func (f *fleet) lease(site string) lifecycle.Lease {
	f.t.Helper()
	l, err := f.store.GetLease(context.Background(), site)
	f.must(err)
	return l
}

// kinds drains d's lease events and returns their kinds.
func kinds(d *daemon) []LeaseEventKind {
	var out []LeaseEventKind
	for {
		select {
		case e := <-d.leases:
			if e.Kind != LeaseRenewed {
				out = append(out, e.Kind)
			}
		default:
			return out
		}
	}
}

const handoverScan = 2 * time.Second

// The site's preferred daemon comes back while another holds the site:
// the lease moves to it within one renewal interval and a scan, under a
// new epoch, the holder releasing it (not losing it); the preferred
// daemon re-enters the parked runs, and the two never hold it together.
func TestLeaseReturnsToThePreferredDaemon(t *testing.T) {
	f := newFleet(t)
	f.prefer("site-1", "daemon-b")
	var ready flagSet
	def := waitDef(ready.get)
	a := f.start("daemon-a", def, handoverScan)
	f.createRun("run-1", "site-1")
	f.createRun("run-2", "site-1")
	a.runner.Submit("run-1")
	a.runner.Submit("run-2")
	eventually(t, "runs parked", func() bool { return f.run("run-1").WaitUntil != nil && f.run("run-2").WaitUntil != nil })
	f.advance(2 * time.Second)
	before := f.lease("site-1")
	kinds(a)

	b := f.start("daemon-b", def, handoverScan)
	appeared := f.wall.Now()
	var back time.Time
	for i := 0; i < 20 && back.IsZero(); i++ {
		f.advance(time.Second)
		ha, hb := f.holds(a, "site-1"), f.holds(b, "site-1")
		if ha && hb {
			t.Fatalf("both daemons drive the site at %v", f.wall.Since(appeared))
		}
		if hb {
			back = f.wall.Now()
		}
	}
	if limit := 15*time.Second/3 + handoverScan + time.Second; back.IsZero() || back.Sub(appeared) > limit {
		t.Fatalf("lease back home after %v (zero: never); want within %v", back.Sub(appeared), limit)
	}
	if l := f.lease("site-1"); l.Holder != "daemon-b" || l.Epoch != before.Epoch+1 {
		t.Fatalf("lease %+v; want daemon-b at epoch %d", l, before.Epoch+1)
	}
	if diff := cmp.Diff([]LeaseEventKind{LeaseReleased}, kinds(a)); diff != "" {
		t.Fatalf("old holder's lease events (-want +got):\n%s", diff)
	}
	if e := lastLease(b); e.Kind != LeaseTakeover {
		t.Fatalf("preferred daemon's last lease event %+v", e)
	}
	for _, id := range []string{"run-1", "run-2"} {
		eventually(t, id+" re-entered by the preferred daemon", func() bool {
			evs := f.events(id)
			return evs[len(evs)-1] == "wait_for_ready:started:re-entered after restart"
		})
	}
	n := a.store.count()
	ready.set("hrun-1")
	ready.set("hrun-2")
	b.runner.Wake("machine:hrun-1")
	b.runner.Wake("machine:hrun-2")
	f.waitStatus("run-1", lifecycle.JobCompleted)
	f.waitStatus("run-2", lifecycle.JobCompleted)
	f.advance(20 * time.Second)
	for _, w := range a.store.since(n) {
		if w == "AdvanceRun" || w == "RenewLease:" {
			t.Fatalf("the old holder wrote %s after the handover", w)
		}
	}
	if !f.holds(b, "site-1") || f.holds(a, "site-1") {
		t.Fatal("the lease did not stay home")
	}
}

// A step in flight when the request comes finishes on the old holder,
// which journals it; only then is the lease released, and the preferred
// daemon drives the rest. No step of the site ever runs on both.
func TestInFlightStepFinishesBeforeTheHandover(t *testing.T) {
	f := newFleet(t)
	f.prefer("site-1", "daemon-b")
	m := &fakeMaas{}
	st := &steps{}
	g := newGate()
	t.Cleanup(g.release) // before the fleet stops, should the test fail
	a := f.start("daemon-a", homeDef("daemon-a", st, m, g), handoverScan)
	f.createRun("run-1", "site-1")
	a.runner.Submit("run-1")
	<-g.entered // the deploy is in flight on daemon-a

	b := f.start("daemon-b", homeDef("daemon-b", st, m, nil), handoverScan)
	f.advance(8 * time.Second) // the holder renewed, saw the request and drains
	if !f.holds(a, "site-1") || f.holds(b, "site-1") || f.lease("site-1").Holder != "daemon-a" {
		t.Fatal("the lease moved while a step was in flight")
	}
	f.createRun("run-2", "site-1")
	a.runner.Submit("run-2")
	f.sync(a)
	if f.run("run-2").Status != lifecycle.JobPending {
		t.Fatal("a draining holder admitted a run")
	}

	g.release()
	eventually(t, "the deploy journaled by daemon-a", func() bool {
		return f.run("run-1").CurrentStage == lifecycle.StageWaitForDeployed
	})
	for i := 0; i < 5 && !f.holds(b, "site-1"); i++ {
		f.advance(time.Second)
	}
	if !f.holds(b, "site-1") || f.holds(a, "site-1") {
		t.Fatal("the lease did not move once the step finished")
	}
	f.waitStatus("run-1", lifecycle.JobCompleted)
	f.waitStatus("run-2", lifecycle.JobCompleted)
	log, most := st.seen()
	want := []string{"daemon-a:run-1:load", "daemon-a:run-1:deploy", "daemon-b:run-1:seed"}
	var got1 []string
	for _, e := range log {
		if strings.Contains(e, ":run-1:") {
			got1 = append(got1, e)
		}
	}
	if diff := cmp.Diff(want, got1); diff != "" {
		t.Fatalf("run-1's steps (-want +got):\n%s", diff)
	}
	if most != 1 {
		t.Fatalf("%d steps of the site ran at once", most)
	}
	if d, _ := m.count("hrun-1"); d != 1 {
		t.Fatalf("%d deploys of hrun-1", d)
	}
}

// release opens the gate; a second call does nothing.
func (g *gate) release() {
	select {
	case <-g.open:
	default:
		close(g.open)
	}
}

// draining reports whether d is draining site for a handover.
func (f *fleet) draining(d *daemon, site string) bool {
	var on bool
	f.must(d.runner.call(context.Background(), func() { on = d.runner.sites[site] != nil && d.runner.sites[site].handover != "" }))
	return on
}

// A holder keeps its site while the preferred daemon is not alive: when
// it never ran, and when it asked and then died while a step was in
// flight (the request lapses and the holder carries on, never releasing).
func TestHolderKeepsTheLeaseWithoutALivePreferredDaemon(t *testing.T) {
	for _, asks := range []bool{false, true} {
		t.Run(fmt.Sprintf("asked=%v", asks), func(t *testing.T) {
			f := newFleet(t)
			f.prefer("site-1", "daemon-b")
			m := &fakeMaas{}
			g := newGate()
			t.Cleanup(g.release)
			a := f.start("daemon-a", homeDef("daemon-a", &steps{}, m, g), handoverScan)
			f.createRun("run-1", "site-1")
			a.runner.Submit("run-1")
			<-g.entered
			if asks {
				b := f.start("daemon-b", homeDef("daemon-b", &steps{}, m, nil), handoverScan)
				f.pause(b) // killed right after asking
				f.advance(8 * time.Second)
				if !f.draining(a, "site-1") {
					t.Fatal("the holder ignored a standing request")
				}
			}
			f.advance(30 * time.Second)
			if f.draining(a, "site-1") {
				t.Fatal("the holder still drains for a daemon whose request lapsed")
			}
			g.release()
			f.waitStatus("run-1", lifecycle.JobCompleted)
			if l := f.lease("site-1"); l.Holder != "daemon-a" || l.Epoch != 1 {
				t.Fatalf("lease %+v; want daemon-a's first grant", l)
			}
			for _, k := range kinds(a) {
				if k == LeaseReleased || k == LeaseLost {
					t.Fatalf("the holder's lease was %s", k)
				}
			}
			if d, _ := m.count("hrun-1"); d != 1 {
				t.Fatalf("%d deploys", d)
			}
		})
	}
}

// A step that outlasts the drain (one TTL) is cancelled; the lease is
// still not released before the step has returned, and the side effect
// it then attempts is refused. The preferred daemon deploys once.
func TestHandoverCancelsAStepThatOutlastsTheDrain(t *testing.T) {
	f := newFleet(t)
	f.prefer("site-1", "daemon-b")
	m := &fakeMaas{}
	st := &steps{}
	g := newGate()
	t.Cleanup(g.release)
	a := f.start("daemon-a", homeDef("daemon-a", st, m, g), handoverScan)
	f.createRun("run-1", "site-1")
	a.runner.Submit("run-1")
	<-g.entered
	b := f.start("daemon-b", homeDef("daemon-b", st, m, nil), handoverScan)
	f.advance(25 * time.Second) // the drain began at the renewal at 5 s
	if !f.holds(a, "site-1") || f.holds(b, "site-1") {
		t.Fatal("the lease moved while a cancelled step had not returned")
	}
	g.release()
	eventually(t, "the deploy refused", func() bool { _, r := m.count("hrun-1"); return r == 1 })
	for i := 0; i < 5 && !f.holds(b, "site-1"); i++ {
		f.advance(time.Second)
	}
	if !f.holds(b, "site-1") {
		t.Fatal("the lease did not move once the cancelled step returned")
	}
	f.waitStatus("run-1", lifecycle.JobCompleted)
	if d, _ := m.count("hrun-1"); d != 1 {
		t.Fatalf("%d deploys", d)
	}
	if _, most := st.seen(); most != 1 {
		t.Fatalf("%d steps of the site ran at once", most)
	}
}
