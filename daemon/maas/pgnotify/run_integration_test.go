//go:build integration

package pgnotify_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// A least-privileged role (LOGIN, CONNECT on maasdb, nothing else) can
// LISTEN; Listening comes first, then every notification in order,
// those of one transaction and those sent one by one; other channels are
// not delivered.
func TestLeastPrivilegeListensInOrder(t *testing.T) {
	s := pgtest.Start(t)
	leastPrivilege(t, s)
	r := start(t, pgnotify.Source{DSN: dsn(s, "listener", "maasdb"), Password: password(listenerPassword)}, 5*time.Second)
	r.waitFor(t, "listening", 20*time.Second, func(ev []string) bool { return count(ev, "listening") == 1 })
	var tx, want []string
	for i := range 20 {
		tx = append(tx, fmt.Sprintf("SELECT pg_notify('%s', 'm%02d')", pgnotify.MachineChannels[i%3], i))
		want = append(want, fmt.Sprintf("%s:m%02d", pgnotify.MachineChannels[i%3], i))
	}
	s.Exec(t, "maasdb", append(append([]string{"BEGIN"}, tx...), "COMMIT")...)
	s.Exec(t, "maasdb", "SELECT pg_notify('event_create', '42')")
	for i := 20; i < 25; i++ {
		s.Exec(t, "maasdb", fmt.Sprintf("SELECT pg_notify('machine_update', 'm%02d')", i))
		want = append(want, fmt.Sprintf("machine_update:m%02d", i))
	}
	ev := r.waitFor(t, "25 notifications", 20*time.Second, func(ev []string) bool { return len(ev) >= 26 })
	if got := append([]string{"listening"}, want...); !slices.Equal(ev, got) {
		t.Fatalf("events\n got %v\nwant %v", ev, got)
	}
}

// A restart mid-stream: Down (lost), reconnects, Listening again before
// anything of the new connection, and later notifications arrive.
func TestServerRestartReconnects(t *testing.T) {
	s := pgtest.Start(t)
	leastPrivilege(t, s)
	r := start(t, pgnotify.Source{DSN: dsn(s, "listener", "maasdb"), Password: password(listenerPassword)}, 5*time.Second)
	r.waitFor(t, "listening", 20*time.Second, func(ev []string) bool { return count(ev, "listening") == 1 })
	s.Exec(t, "maasdb", "SELECT pg_notify('machine_update', 'before')")
	r.waitFor(t, "before", 10*time.Second, func(ev []string) bool { return slices.Contains(ev, "machine_update:before") })
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "a second listening", 30*time.Second, func(ev []string) bool { return count(ev, "listening") == 2 })
	s.Exec(t, "maasdb", "SELECT pg_notify('machine_delete', 'after')")
	ev := r.waitFor(t, "after", 10*time.Second, func(ev []string) bool { return slices.Contains(ev, "machine_delete:after") })
	first := slices.Index(ev, "machine_update:before")
	down := slices.Index(ev, "down:lost")
	again := first + 1 + slices.Index(ev[first+1:], "listening")
	if down != first+1 || again < down || slices.Index(ev, "machine_delete:after") < again {
		t.Fatalf("want before, down:lost, (down:unreachable...), listening, after; got %v", ev)
	}
	for _, e := range ev[down+1 : again] {
		if e != "down:unreachable" && e != "down:other" { // other: 57P03, the database system is starting up
			t.Fatalf("between the loss and the reconnect only failed connects, got %v", ev)
		}
	}
}
