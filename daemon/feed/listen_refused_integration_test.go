//go:build integration

package feed_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// A listener that cannot listen (wrong port, wrong password, a role
// without CONNECT, no such database, no password in Vault) leaves the
// site to the events cursor: the feed keeps running and still finds an
// out-of-band release, the listener reads down with the reason, and the
// log names the site and says what is wrong, never the password.
func TestListenRefusedFallsBackToTheCursor(t *testing.T) {
	pg := regionDB(t)
	cases := []struct {
		name, reason, says string
		o                  func(opts) opts
	}{
		{"wrong port", "unreachable", "connect", func(o opts) opts {
			o.notify.DSN = strings.Replace(o.notify.DSN, portOf(pg), ":1", 1)
			return o
		}},
		{"wrong password", "auth", "password authentication failed", func(o opts) opts {
			o.secrets[lifecycle.NotifyDBPasswordVaultPath(siteID)] = map[string]string{"password": "not-" + listenPassword}
			return o
		}},
		{"role without CONNECT", "no_connect", "CONNECT", func(o opts) opts {
			o.notify.DSN = strings.Replace(o.notify.DSN, "maas_listen@", "maas_nobody@", 1)
			return o
		}},
		{"no such database", "no_database", "maasdb_typo", func(o opts) opts {
			o.notify.DSN = strings.Replace(o.notify.DSN, "/maasdb", "/maasdb_typo", 1)
			return o
		}},
		{"no password in Vault", "config", lifecycle.NotifyDBPasswordVaultPath(siteID), func(o opts) opts {
			delete(o.secrets, lifecycle.NotifyDBPasswordVaultPath(siteID))
			return o
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.o(pgListenOpts(pg, "maas_listen", "maasdb"))
			o.mirror, o.poll = "", 100*time.Millisecond
			s := newSite(t, o)
			id, sid := s.activeNode("gpu-x1")
			s.eventually(5*time.Second, "listener error "+c.reason, func() bool {
				return s.metric("maas_sidecar_feed_listener_errors_total", "site", siteID, "reason", c.reason) >= 1
			})
			if up, ok := s.series("maas_sidecar_feed_listener_up", "site", siteID); !ok || up != 0 {
				t.Fatalf("listener_up %v (present %v), want 0", up, ok)
			}
			s.caughtUp()
			must(t, s.sim.ReleaseOutOfBand(context.Background(), sid))
			s.waitState(id, lifecycle.NodeQuarantined, 5*time.Second)
			logs := s.logs.String()
			line := lineWith(logs, "region database listener down")
			for _, want := range []string{"site=" + siteID, "reason=" + c.reason, c.says} {
				if !strings.Contains(line, want) {
					t.Errorf("log line lacks %q:\n%s", want, line)
				}
			}
			if strings.Contains(logs, listenPassword) {
				t.Fatal("the log carries the password")
			}
		})
	}
}

func portOf(pg interface{ Port() int }) string { return ":" + strconv.Itoa(pg.Port()) }

// caughtUp waits until the site's events cursor has read every MAAS event
// there is now.
func (s *site) caughtUp() {
	s.t.Helper()
	newest, err := s.client.NewestEventID(context.Background())
	must(s.t, err)
	s.eventually(3*time.Second, "events cursor caught up", func() bool {
		cur, err := s.store.GetFeedCursor(context.Background(), siteID)
		return err == nil && !cur.UpdatedAt.IsZero() && cur.EventID >= newest
	})
}

func lineWith(logs, sub string) string {
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
