//go:build integration

package pgnotify_test

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// Each misconfiguration gives its Reason and a message that says what is
// wrong, and never the password; the listener keeps retrying.
func TestConnectFailuresAreClassified(t *testing.T) {
	s := pgtest.Start(t)
	leastPrivilege(t, s)
	s.Exec(t, "", "CREATE ROLE stranger LOGIN PASSWORD '"+listenerPassword+"'")
	closed := closedPort(t)
	tests := []struct {
		name, dsn, pw, reason string
		want                  []string
	}{
		{"wrong password", dsn(s, "listener", "maasdb"), "not-" + listenerPassword, pgnotify.ReasonAuth,
			[]string{`refused user "listener" on database "maasdb"`, "SQLSTATE 28P01"}},
		{"wrong port", fmt.Sprintf("postgres://listener@127.0.0.1:%d/maasdb?sslmode=disable&connect_timeout=2", closed),
			listenerPassword, pgnotify.ReasonUnreachable, []string{fmt.Sprintf("cannot reach PostgreSQL at 127.0.0.1:%d", closed), "connection refused"}},
		{"role without CONNECT", dsn(s, "stranger", "maasdb"), listenerPassword, pgnotify.ReasonNoConnect,
			[]string{`user "stranger" may not connect to database "maasdb"`, "GRANT CONNECT ON DATABASE maasdb TO stranger", "SQLSTATE 42501"}},
		{"missing database", dsn(s, "listener", "nosuchdb"), listenerPassword, pgnotify.ReasonNoDatabase,
			[]string{`database "nosuchdb" does not exist at 127.0.0.1:`, "SQLSTATE 3D000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := start(t, pgnotify.Source{DSN: tt.dsn, Password: password(tt.pw)}, 5*time.Second)
			ev := r.waitFor(t, "two failures", 20*time.Second, func(ev []string) bool { return len(ev) >= 2 })
			if ev[0] != "down:"+tt.reason || ev[1] != ev[0] {
				t.Fatalf("events %v, want down:%s twice (it retries)", ev, tt.reason)
			}
			_, errs := r.snapshot()
			msg := errs[0].Error()
			t.Log(msg)
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if strings.Contains(msg, tt.pw) {
				t.Errorf("error %q contains the password", msg)
			}
		})
	}
}

// closedPort is a TCP port on 127.0.0.1 that nothing listens on.
func closedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}
