package runner

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// waitDef parks every run until its machine is ready in ready.
func waitDef(ready func(host string) bool) *Def {
	return &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageWaitForReady,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if ready(c.Run.Hostname) {
				return Done("ready"), nil
			}
			return Wait(time.Time{}, "machine:"+c.Run.Hostname), nil
		}}}}
}

// A holder that dies (no renewal, no release) loses its site to a
// survivor at the end of its lease, not later; the survivor re-enters the
// running run as after a restart and admits the queued one.
func TestKilledHolderIsTakenOverAfterTheTTL(t *testing.T) {
	f := newFleet(t)
	_, err := f.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
		p.BatchMaxParallel = 1
		return nil
	})
	f.must(err)
	var ready flagSet
	def := waitDef(ready.get)
	a := f.start("daemon-a", def, 0)
	f.createRun("run-1", "site-1")
	f.createRun("run-2", "site-1")
	a.runner.Submit("run-1")
	a.runner.Submit("run-2")
	eventually(t, "run-1 parked", func() bool { return f.run("run-1").WaitUntil != nil })
	f.advance(5 * time.Second) // one renewal
	renewed, err := f.store.GetLease(context.Background(), "site-1")
	f.must(err)
	f.pause(a) // killed: it never runs again
	b := f.start("daemon-b", def, 0)
	took := time.Time{}
	for i := 0; i < 30 && took.IsZero(); i++ {
		f.advance(time.Second)
		if f.holds(b, "site-1") {
			took = f.wall.Now()
		}
	}
	if took.IsZero() || took.After(renewed.ExpiresAt.Add(2*time.Second)) {
		t.Fatalf("taken over at %v; the lease expired at %v", took, renewed.ExpiresAt)
	}
	if e := lastLease(b); e.Kind != LeaseTakeover || e.Lease.Epoch != renewed.Epoch+1 {
		t.Fatalf("survivor's lease event %+v", e)
	}
	eventually(t, "run-1 re-entered by the survivor", func() bool {
		evs := f.events("run-1")
		return evs[len(evs)-1] == "wait_for_ready:started:re-entered after restart"
	})
	if f.run("run-2").Status != lifecycle.JobPending {
		t.Fatal("the survivor admitted past the cap")
	}
	ready.set("hrun-1")
	ready.set("hrun-2")
	b.runner.Wake("machine:hrun-1")
	f.waitStatus("run-1", lifecycle.JobCompleted)
	f.waitStatus("run-2", lifecycle.JobCompleted)
}

// A holder whose lease lapsed by its own clock while nobody took the site
// (a pause, or a store that answered late) refuses the side effect it was
// about to make, renews under the same epoch and re-enters the stage.
func TestLapseWithoutTakeoverReentersTheStage(t *testing.T) {
	f := newFleet(t)
	m := &fakeMaas{}
	g := newGate()
	a := f.start("daemon-a", deployDef(m, g.wait), 0)
	f.createRun("run-1", "site-1")
	a.runner.Submit("run-1")
	<-g.entered
	f.pause(a)
	f.wall.Advance(20 * time.Second)
	close(g.open)
	eventually(t, "the deploy refused", func() bool { _, r := m.count("hrun-1"); return r == 1 })
	f.resume(a)
	f.waitStatus("run-1", lifecycle.JobCompleted)
	if d, _ := m.count("hrun-1"); d != 1 {
		t.Fatalf("%d deploys", d)
	}
	if l, _ := f.store.GetLease(context.Background(), "site-1"); l.Holder != "daemon-a" || l.Epoch != 1 {
		t.Fatalf("lease %+v: the same grant should carry on", l)
	}
}

// The scan adopts a site created through another daemon, and runs the
// runs submitted through another daemon's admin API.
func TestScanAdoptsSitesAndRunsWrittenElsewhere(t *testing.T) {
	f := newFleet(t)
	var ready flagSet
	ready.set("hrun-1")
	a := f.start("daemon-a", waitDef(ready.get), 2*time.Second)
	b := f.start("daemon-b", waitDef(ready.get), 2*time.Second)
	f.must(f.store.CreateSite(context.Background(), lifecycle.Site{ID: "site-2", Name: "dc2", RegionCode: "dc2",
		APIBaseURL: "http://10.0.0.2:5240/MAAS", PXEIface: "ens19", NodePXEIface: "eno8303"}.WithDefaults(),
		lifecycle.DefaultSitePolicy("site-2")))
	f.advance(2 * time.Second)
	if f.holds(a, "site-2") == f.holds(b, "site-2") {
		t.Fatal("exactly one daemon must adopt the new site")
	}
	holder, other := a, b
	if !f.holds(a, "site-1") {
		holder, other = b, a
	}
	f.createRun("run-1", "site-1")
	other.runner.Submit("run-1") // the admin API of the daemon that does not hold the site
	f.sync(other)
	if f.run("run-1").Status != lifecycle.JobPending {
		t.Fatal("a daemon without the lease drove the run")
	}
	f.advance(2 * time.Second)
	f.waitStatus("run-1", lifecycle.JobCompleted)
	if !f.holds(holder, "site-1") {
		t.Fatal("the holder changed")
	}
}

func lastLease(d *daemon) LeaseEvent {
	var e LeaseEvent
	for {
		select {
		case e = <-d.leases:
		default:
			return e
		}
	}
}

// An operator action on a failed run, sent to a daemon that does not
// hold the site, is journaled under the holder's epoch and the holder
// drives the run on; a running run stays the holder's alone.
func TestActionThroughAnotherDaemon(t *testing.T) {
	f := newFleet(t)
	var fixed flagSet
	def := &Def{Name: "t", Stages: []StageDef{{Stage: lifecycle.StageWaitForReady,
		Run: func(ctx context.Context, c *Context) (Outcome, error) {
			if !fixed.get(c.Run.Hostname) {
				return Outcome{}, Classed(lifecycle.FailHardwareMismatch, errors.New("no BOSS disk"))
			}
			return Done("ready"), nil
		}}}}
	a := f.start("daemon-a", def, 2*time.Second)
	b := f.start("daemon-b", def, 2*time.Second)
	holder, other := a, b
	if !f.holds(a, "site-1") {
		holder, other = b, a
	}
	f.createRun("run-1", "site-1")
	holder.runner.Submit("run-1")
	f.waitStatus("run-1", lifecycle.JobFailedManualIntervention)
	fixed.set("hrun-1")
	res, err := other.runner.Act(context.Background(), ActionRequest{RunID: "run-1", Action: lifecycle.ActionRetryStage, Actor: "op", Reason: "fixed"})
	if err != nil || res.Run.Status != lifecycle.JobRunning {
		t.Fatalf("act through the other daemon: %+v %v", res.Run.Status, err)
	}
	f.advance(2 * time.Second)
	f.waitStatus("run-1", lifecycle.JobCompleted)

	f.createRun("run-2", "site-1")
	fixed.set("hrun-2")
	_, err = other.runner.Act(context.Background(), ActionRequest{RunID: "run-2", Action: lifecycle.ActionCancel, Actor: "op"})
	if lifecycle.ErrorCode(err) != lifecycle.CodeUnavailable {
		t.Fatalf("cancel of a pending run through the other daemon: %v, want unavailable", err)
	}
}

// A wake that only another daemon saw (an agent enrolling through its
// agent API) still moves the holder's parked run: every few scans the
// holder wakes its runs parked on the shared keys, and their stages look
// at the store again. Keys outside SharedWakeKeys are not woken so.
func TestHolderLooksAgainAtWakesSeenElsewhere(t *testing.T) {
	f := newFleet(t)
	var ready flagSet
	a := f.start("daemon-a", waitDef(ready.get), 2*time.Second, "machine:")
	b := f.start("daemon-b", waitDef(ready.get), 2*time.Second, "machine:")
	holder, other := a, b
	if !f.holds(a, "site-1") {
		holder, other = b, a
	}
	f.createRun("run-1", "site-1")
	holder.runner.Submit("run-1")
	eventually(t, "run-1 parked", func() bool { return f.run("run-1").WaitUntil != nil })
	ready.set("hrun-1")
	other.runner.Wake("machine:hrun-1") // seen by the daemon that does not hold the site
	f.sync(other)
	f.advance(2 * time.Second)
	if f.run("run-1").Status == lifecycle.JobCompleted {
		t.Fatal("the holder moved before any shared wake was due")
	}
	for range sharedWakeScans {
		f.advance(2 * time.Second)
	}
	f.waitStatus("run-1", lifecycle.JobCompleted)
}
