//go:build integration

package maassim_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gpuaas/maas-sidecar/internal/pgtest"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// mirrorDB is the database the tests mirror into.
const mirrorDB = "maas"

// newPG starts PostgreSQL with an empty database mirrorDB.
func newPG(t *testing.T) *pgtest.Server {
	t.Helper()
	pg := pgtest.Start(t)
	pg.Exec(t, "", "CREATE DATABASE "+mirrorDB)
	return pg
}

// mirror starts s's mirror into pg until the test ends.
func mirror(t *testing.T, s *site, pg *pgtest.Server, o maassim.MirrorOptions) *maassim.Mirror {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	m, err := s.sim.MirrorPostgres(ctx, pg.SuperDSN(mirrorDB), o)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-m.Done() })
	return m
}

// listener is a plain connection LISTENing on MAAS's machine, device,
// controller and event channels; every notification lands in c.
type listener struct{ c chan *pgconn.Notification }

func listen(t *testing.T, pg *pgtest.Server) *listener {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.SuperDSN(mirrorDB))
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"machine_create", "machine_update", "machine_delete", "event_create",
		"device_create", "device_update", "device_delete",
		"controller_create", "controller_update", "controller_delete"} {
		if _, err := conn.Exec(ctx, "LISTEN "+ch); err != nil {
			t.Fatal(err)
		}
	}
	l := &listener{c: make(chan *pgconn.Notification, 1024)}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer conn.Close(ctx)
		for {
			n, err := conn.WaitForNotification(wctx)
			if err != nil {
				return
			}
			l.c <- n
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return l
}

// await reads notifications until one on channel with payload (any
// payload when "") arrives, failing t after 5 s; it returns those read
// before it.
func (l *listener) await(t *testing.T, channel, payload string) []string {
	t.Helper()
	var seen []string
	deadline := time.After(5 * time.Second)
	for {
		select {
		case n := <-l.c:
			if n.Channel == channel && (payload == "" || n.Payload == payload) {
				return seen
			}
			seen = append(seen, n.Channel+":"+n.Payload)
		case <-deadline:
			t.Fatalf("no %s %s within 5s; got %v", channel, payload, seen)
		}
	}
}

// quiet fails t when a notification naming any of payloads (on a
// machine channel), or any event_create, arrives within d.
func (l *listener) quiet(t *testing.T, d time.Duration, payloads ...string) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case n := <-l.c:
			onMachine := strings.HasPrefix(n.Channel, "machine_")
			if n.Channel == "event_create" || (onMachine && strings.Contains(strings.Join(payloads, " "), n.Payload)) {
				t.Fatalf("unexpected notification %s %s", n.Channel, n.Payload)
			}
		case <-deadline:
			return
		}
	}
}

// row is a machine's row in maasserver_node.
type row struct {
	Hostname, PowerState string
	Status               int
}

// rows reads the machines (node_type 0) of maasserver_node by system_id.
func rows(t *testing.T, pg *pgtest.Server) map[string]row {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.SuperDSN(mirrorDB))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rs, _ := conn.Query(ctx, "SELECT system_id, hostname, power_state, status FROM maasserver_node WHERE node_type = 0")
	out := map[string]row{}
	var sid string
	var r row
	_, err = pgx.ForEachRow(rs, []any{&sid, &r.Hostname, &r.PowerState, &r.Status}, func() error {
		out[sid] = r
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// simRows is what maasserver_node should hold for s's machines.
func simRows(t *testing.T, s *site) map[string]row {
	t.Helper()
	out := map[string]row{}
	for _, sid := range s.ids(t) {
		m := s.machine(t, sid)
		out[sid] = row{Hostname: m["hostname"].(string), PowerState: m["power_state"].(string),
			Status: int(m["status"].(float64))}
	}
	return out
}

// inStep waits until maasserver_node matches s (5 s at most).
func inStep(t *testing.T, s *site, pg *pgtest.Server) {
	t.Helper()
	var got, want map[string]row
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		got, want = rows(t, pg), simRows(t, s)
		if cmp.Equal(got, want) {
			return
		}
	}
	t.Fatalf("maasserver_node differs from the simulator (-table +sim):\n%s", cmp.Diff(got, want))
}
