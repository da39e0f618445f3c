package runner

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// fakeMaas counts deploys per machine; like the real ports it refuses to
// act once the caller's site lease has lapsed.
type fakeMaas struct {
	mu      sync.Mutex
	deploys map[string]int
	refused int
}

func (m *fakeMaas) deploy(ctx context.Context, host string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := lifecycle.CheckLease(ctx); err != nil {
		m.refused++
		return err
	}
	if m.deploys == nil {
		m.deploys = map[string]int{}
	}
	m.deploys[host]++
	return nil
}

func (m *fakeMaas) count(host string) (deploys, refused int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.deploys[host], m.refused
}

// deployDef is a two-stage onboarding whose deploy stage adopts a deploy
// already issued; gate, when set, runs between that check and the deploy
// (a daemon frozen at the worst moment: it saw no deploy and is about to
// send one).
func deployDef(m *fakeMaas, gate func()) *Def {
	return &Def{Name: "t", Stages: []StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: ok("loaded")},
		{Stage: lifecycle.StageDeployViaMaas, Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if n, _ := m.count(c.Run.Hostname); n > 0 {
				return Done("already deploying"), nil
			}
			if gate != nil {
				gate() // paused after reading MAAS, before deploying
			}
			if err := m.deploy(ctx, c.Run.Hostname); err != nil {
				return Outcome{}, err
			}
			return Done("deploying"), nil
		}},
	}}
}

// gate blocks the first stage call that reaches it until opened.
type gate struct {
	once    sync.Once
	entered chan struct{}
	open    chan struct{}
}

func newGate() *gate { return &gate{entered: make(chan struct{}), open: make(chan struct{})} }

func (g *gate) wait() {
	first := false
	g.once.Do(func() { first = true; close(g.entered) })
	if first {
		<-g.open // frozen: a paused process ignores its context too
	}
}

func (f *fleet) createRun(id, site string) {
	f.t.Helper()
	f.wall.Advance(time.Millisecond)
	f.must(f.store.CreateRun(context.Background(), lifecycle.Run{ID: id, Kind: lifecycle.RunOnboarding, SiteID: site,
		Hostname: "h" + id, Status: lifecycle.JobPending}))
}

func (f *fleet) run(id string) lifecycle.Run {
	f.t.Helper()
	r, err := f.store.GetRun(context.Background(), id)
	f.must(err)
	return r
}

func (f *fleet) events(id string) []string {
	f.t.Helper()
	evs, err := f.store.ListRunEvents(context.Background(), id, 0, 0)
	f.must(err)
	out := []string{}
	for _, e := range evs {
		out = append(out, string(e.Stage)+":"+string(e.Status)+":"+e.Message)
	}
	return out
}

func (f *fleet) waitStatus(id string, st lifecycle.JobState) {
	f.t.Helper()
	eventually(f.t, "run "+id+" "+string(st), func() bool { return f.run(id).Status == st })
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// The fencing must-show in one process: the holder is frozen just before
// a deploy, past its TTL; a survivor takes the site over and finishes
// the run with one deploy; when the frozen holder resumes, its pending
// deploy is refused by its own clock, it writes no journal entry, and the
// first thing it does with the store is a renewal that fails.
func TestFrozenHolderIsFencedAndTheSurvivorCompletes(t *testing.T) {
	f := newFleet(t)
	m := &fakeMaas{}
	g := newGate()
	a := f.start("daemon-a", deployDef(m, g.wait), 0)
	f.createRun("run-1", "site-1")
	a.runner.Submit("run-1")
	<-g.entered
	f.pause(a) // SIGSTOP, a deploy about to be sent

	b := f.start("daemon-b", deployDef(m, nil), 0)
	if f.holds(b, "site-1") {
		t.Fatal("the survivor took a live lease")
	}
	f.advance(16 * time.Second)
	f.waitStatus("run-1", lifecycle.JobCompleted)
	if l, _ := f.store.GetLease(context.Background(), "site-1"); l.Holder != "daemon-b" || l.Epoch != 2 {
		t.Fatalf("lease after takeover: %+v", l)
	}
	journal := f.events("run-1")
	mark := a.store.count()

	close(g.open) // SIGCONT: the frozen stage goroutine goes first
	eventually(t, "the resumed deploy to be refused", func() bool { _, r := m.count("hrun-1"); return r == 1 })
	f.resume(a)
	eventually(t, "the resumed daemon to give the site up", func() bool { return !f.holds(a, "site-1") })
	f.sync(a)

	if d, _ := m.count("hrun-1"); d != 1 {
		t.Fatalf("%d deploys, want exactly one (the survivor's)", d)
	}
	if diff := cmp.Diff(journal, f.events("run-1")); diff != "" {
		t.Fatalf("the resumed daemon changed the journal:\n%s", diff)
	}
	writes := a.store.since(mark)
	if len(writes) == 0 || writes[0] != "RenewLease:conflict" || slices.Contains(writes, "AdvanceRun") {
		t.Fatalf("resumed daemon's store writes %v: want a failed renewal first and no journal write", writes)
	}
	want := []string{"load_site_config:started:", "load_site_config:succeeded:loaded", "deploy_via_maas:started:",
		"deploy_via_maas:started:re-entered after restart", "deploy_via_maas:succeeded:deploying"}
	if diff := cmp.Diff(want, journal); diff != "" {
		t.Fatalf("journal (-want +got):\n%s", diff)
	}
}
