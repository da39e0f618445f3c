//go:build integration

package maassim_test

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// TestMirrorNotifiesMachineChanges: PostgreSQL's own triggers announce a
// machine created, released out of band, powered off and deleted in the
// simulator, on MAAS's channels with the system id; the first write of
// the existing machines announces nothing.
func TestMirrorNotifiesMachineChanges(t *testing.T) {
	ctx := context.Background()
	s, pg := newSite(t, 1), newPG(t)
	on, err := s.sim.AddMachine(maassim.HostSpec{}, "gpu-on", maassim.StatusDeployed)
	if err != nil {
		t.Fatal(err)
	}
	l := listen(t, pg)
	mirror(t, s, pg, maassim.MirrorOptions{})
	inStep(t, s, pg)
	l.quiet(t, 300*time.Millisecond, s.ids(t)...)

	sid, err := s.sim.AddMachine(maassim.HostSpec{}, "gpu-new", maassim.StatusDeployed)
	if err != nil {
		t.Fatal(err)
	}
	l.await(t, "machine_create", sid)
	inStep(t, s, pg)

	start := time.Now()
	if err := s.sim.ReleaseOutOfBand(ctx, sid); err != nil {
		t.Fatal(err)
	}
	l.await(t, "machine_update", sid)
	t.Logf("out-of-band release to machine_update: %v", time.Since(start))
	l.await(t, "event_create", "")
	inStep(t, s, pg)

	if err := s.sim.PowerOffOutOfBand(ctx, on); err != nil {
		t.Fatal(err)
	}
	l.await(t, "machine_update", on)
	inStep(t, s, pg)
	if r := rows(t, pg)[on]; r.PowerState != "off" {
		t.Fatalf("power_state of %s = %q, want off", on, r.PowerState)
	}

	if err := s.sim.DeleteOutOfBand(ctx, sid); err != nil {
		t.Fatal(err)
	}
	l.await(t, "machine_delete", sid)
	inStep(t, s, pg)
}

// TestMirrorOnlyMachinesNotify: MAAS's trigger conditions hold: a device
// row (node_type 1) inserted, changed and deleted by SQL notifies nothing
// on the machine channels, a machine row changed by SQL does, and a
// device turned into a machine is announced as a machine_create.
func TestMirrorOnlyMachinesNotify(t *testing.T) {
	s, pg := newSite(t, 1), newPG(t)
	mirror(t, s, pg, maassim.MirrorOptions{})
	l := listen(t, pg)
	pg.Exec(t, mirrorDB,
		"INSERT INTO maasserver_node (system_id, hostname, node_type) VALUES ('dev001', 'switch-1', 1)",
		"UPDATE maasserver_node SET status = 6, power_state = 'on' WHERE system_id = 'dev001'",
		"DELETE FROM maasserver_node WHERE system_id = 'dev001'")
	l.quiet(t, 500*time.Millisecond, "dev001")

	sid := s.ids(t)[0]
	pg.Exec(t, mirrorDB, "UPDATE maasserver_node SET updated = now() WHERE system_id = '"+sid+"'")
	pg.Exec(t, mirrorDB, "UPDATE maasserver_node SET status = 8 WHERE system_id = '"+sid+"'")
	if seen := l.await(t, "machine_update", sid); len(seen) != 0 {
		t.Fatalf("notifications before the status change: %v (a change to no watched column notified)", seen)
	}

	pg.Exec(t, mirrorDB,
		"INSERT INTO maasserver_node (system_id, hostname, node_type) VALUES ('dev002', 'switch-2', 1)",
		"UPDATE maasserver_node SET node_type = 0 WHERE system_id = 'dev002'")
	l.await(t, "machine_create", "dev002")
}

// TestMirrorOutageResyncsSilently: changes made while PostgreSQL is down
// reach the table after it is back, with no notification (a MAAS whose
// database is down changes nothing); later changes notify again.
func TestMirrorOutageResyncsSilently(t *testing.T) {
	ctx := context.Background()
	s, pg := newSite(t, 0), newPG(t)
	a, _ := s.sim.AddMachine(maassim.HostSpec{}, "gpu-a", maassim.StatusDeployed)
	b, _ := s.sim.AddMachine(maassim.HostSpec{}, "gpu-b", maassim.StatusDeployed)
	backoff := clockwork.NewFakeClock()
	mirror(t, s, pg, maassim.MirrorOptions{Clock: backoff})
	inStep(t, s, pg)

	if err := pg.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := s.sim.ReleaseOutOfBand(ctx, a); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := backoff.BlockUntilContext(wait, 1); err != nil {
		t.Fatalf("the mirror did not back off after its write failed: %v", err)
	}
	if err := s.sim.DeleteOutOfBand(ctx, b); err != nil {
		t.Fatal(err)
	}
	c, _ := s.sim.AddMachine(maassim.HostSpec{}, "gpu-c", maassim.StatusReady)
	if err := pg.Start(); err != nil {
		t.Fatal(err)
	}
	l := listen(t, pg)
	backoff.Advance(time.Minute)
	inStep(t, s, pg)
	l.quiet(t, 500*time.Millisecond, a, b, c)

	if err := s.sim.MarkBrokenOutOfBand(ctx, c, "bad DIMM"); err != nil {
		t.Fatal(err)
	}
	l.await(t, "machine_update", c)
	inStep(t, s, pg)
}

// TestMirrorSecondStart: a simulator restarted on the same database
// starts its mirror (the schema is created again over the old one), the
// table then holds exactly its machines, silently, and its changes
// notify.
func TestMirrorSecondStart(t *testing.T) {
	pg := newPG(t)
	first := newSite(t, 3)
	ctx, stop := context.WithCancel(context.Background())
	m, err := first.sim.MirrorPostgres(ctx, pg.SuperDSN(mirrorDB), maassim.MirrorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inStep(t, first, pg)
	stop()
	<-m.Done()

	l := listen(t, pg)
	second := newSite(t, 1)
	mirror(t, second, pg, maassim.MirrorOptions{})
	inStep(t, second, pg)
	l.quiet(t, 300*time.Millisecond, first.ids(t)...)

	sid := second.ids(t)[0]
	if err := second.sim.MarkBrokenOutOfBand(context.Background(), sid, "bad PSU"); err != nil {
		t.Fatal(err)
	}
	l.await(t, "machine_update", sid)
}

// TestMirrorNotifiesLinkChanges: a machine whose PXE interface loses its
// links changes no node column, but MAAS's interface and IP address
// triggers announce it as a machine_update, and so does the mirror.
func TestMirrorNotifiesLinkChanges(t *testing.T) {
	s, pg := newSite(t, 1), newPG(t)
	mirror(t, s, pg, maassim.MirrorOptions{})
	l := listen(t, pg)
	sid := s.ids(t)[0]
	if err := s.sim.UnlinkPXE(context.Background(), sid); err != nil {
		t.Fatal(err)
	}
	l.await(t, "machine_update", sid)
}
