//go:build integration

package feed_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// An out-of-band release is found through LISTEN alone: webhooks off, the
// cursor and the resync hourly. The region database is a real PostgreSQL
// whose MAAS triggers fire on the simulator's mirrored machines; the
// listener connects as a role that may only connect.
func TestListenAloneFindsAnOutOfBandRelease(t *testing.T) {
	s := newSite(t, pgListenOpts(regionDB(t), "maas_listen", "maasdb"))
	id, sid := s.activeNode("gpu-p1")
	s.awaitSource("listen")
	s.caughtUpAfterConnect(1)
	cursorReads := s.metric("maas_sidecar_feed_machines_read_total", "source", "events")
	start := time.Now()
	must(t, s.sim.ReleaseOutOfBand(context.Background(), sid))
	s.waitState(id, lifecycle.NodeQuarantined, 5*time.Second)
	t.Logf("quarantined %s after the release (LISTEN)", time.Since(start).Round(time.Millisecond))
	if s.metric("maas_sidecar_feed_notifications_total", "site", siteID, "channel", "machine_update") < 1 {
		t.Fatal("no machine_update notification counted")
	}
	if got := s.metric("maas_sidecar_feed_machines_read_total", "source", "events"); got != cursorReads {
		t.Fatalf("the cursor read %v machines since: the release should have come through LISTEN", got-cursorReads)
	}
	if a := join(s.audits(id)); a != "reconcile.quarantine" {
		t.Fatalf("audit %s, want one quarantine", a)
	}
}

// PostgreSQL restarted mid-test: a release made while it is down is
// notified to nobody (the mirror resyncs silently), so only the catch-up
// after the listener reconnects can find it; it is acted on once, and a
// later release comes through LISTEN again.
func TestListenSurvivesADatabaseRestart(t *testing.T) {
	pg := regionDB(t)
	s := newSite(t, pgListenOpts(pg, "maas_listen", "maasdb"))
	a, sidA := s.activeNode("gpu-r1")
	b, sidB := s.activeNode("gpu-r2")
	s.awaitSource("listen")
	s.caughtUpAfterConnect(1)
	deployed := mirroredStatus(t, pg, sidA)
	must(t, pg.Stop())
	s.eventually(5*time.Second, "listener down", func() bool { return s.metric("maas_sidecar_feed_listener_up", "site", siteID) == 0 })
	must(t, s.sim.ReleaseOutOfBand(context.Background(), sidA))
	must(t, pg.Start())
	s.waitState(a, lifecycle.NodeQuarantined, 10*time.Second)
	// The catch-up reads the simulator, not the database: wait until the
	// mirror is back too (its silent resync wrote the release), or B's
	// release could be folded into that resync and notified to nobody.
	s.eventually(10*time.Second, "mirror back", func() bool {
		st := mirroredStatus(t, pg, sidA)
		return st != deployed && st != -1
	})
	if got := s.metric("maas_sidecar_feed_listener_reconnects_total", "site", siteID); got != 1 {
		t.Fatalf("reconnects %v, want 1", got)
	}
	if s.metric("maas_sidecar_feed_listener_errors_total", "site", siteID, "reason", "lost") < 1 {
		t.Fatalf("the lost connection was not counted: %v", s.logs)
	}
	listenReads := s.metric("maas_sidecar_feed_machines_read_total", "source", "listen")
	must(t, s.sim.ReleaseOutOfBand(context.Background(), sidB))
	s.waitState(b, lifecycle.NodeQuarantined, 10*time.Second)
	if s.metric("maas_sidecar_feed_machines_read_total", "source", "listen") <= listenReads {
		t.Fatal("the release after the restart was not read through LISTEN")
	}
	for _, id := range []string{a, b} {
		if got := join(s.audits(id)); got != "reconcile.quarantine" {
			t.Fatalf("%s audit %s, want one quarantine", id, got)
		}
	}
}

// mirroredStatus is the status the simulator's mirror last wrote for
// system id sid (-1 when the row or the database is not there).
func mirroredStatus(t *testing.T, pg *pgtest.Server, sid string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, pg.SuperDSN("maasdb"))
	if err != nil {
		return -1
	}
	defer conn.Close(ctx)
	status := -1
	if err := conn.QueryRow(ctx, "SELECT status FROM maasserver_node WHERE system_id = $1", sid).Scan(&status); err != nil {
		return -1
	}
	return status
}
