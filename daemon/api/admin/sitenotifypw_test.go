package admin_test

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// tripwire is a TCP listener on a loopback address of its own that
// counts the connections it is offered and the bytes they carry.
type tripwire struct {
	addr         string
	conns, bytes atomic.Int64
}

func newTripwire(t *testing.T, ip string) *tripwire {
	t.Helper()
	l, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	tw := &tripwire{addr: l.Addr().String()}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			tw.conns.Add(1)
			go func() {
				defer c.Close()
				c.SetReadDeadline(time.Now().Add(2 * time.Second))
				buf := make([]byte, 4096)
				for {
					n, err := c.Read(buf)
					tw.bytes.Add(int64(n))
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	return tw
}

// A PATCH that would make the listener send the stored password to a new
// target (another host, port, user or database, another sslmode or
// sslrootcert, or a switch to dsn) is
// refused naming notify_db_password when it does not carry the password;
// the site, Vault and the feed are untouched and the new host is never
// contacted.
func TestNotifyTargetChangeWithoutThePasswordIsRefusedAndTheNewHostHearsNothing(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	from := "postgres://maas_listen@127.0.0.1:5432/maasdb?sslmode=disable"
	expect(t, e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"notify": map[string]any{"source": "dsn", "dsn": from}}),
		422, "notify_db_password") // off -> dsn needs it too
	tw := newTripwire(t, "127.0.0.3")
	_, port, _ := net.SplitHostPort(tw.addr)
	cases := map[string]string{
		"host":     "postgres://maas_listen@" + tw.addr + "/maasdb?sslmode=disable",
		"port":     "postgres://maas_listen@127.0.0.1:" + port + "/maasdb?sslmode=disable",
		"user":     "postgres://postgres@127.0.0.1:5432/maasdb?sslmode=disable",
		"database": "postgres://maas_listen@127.0.0.1:5432/postgres?sslmode=disable",
		// how the server is verified is part of the target
		"sslmode":     "postgres://maas_listen@127.0.0.1:5432/maasdb?sslmode=require",
		"sslrootcert": "postgres://maas_listen@127.0.0.1:5432/maasdb?sslmode=disable&sslrootcert=/etc/ssl/other.pem",
	}
	// the site starts at `from`, as an earlier proved change left it
	_, err := e.store.UpdateSite(context.Background(), id, func(s *lifecycle.Site) error {
		s.Notify = lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: from}
		return nil
	})
	e.must(err)
	before := e.recon.refollowed()
	for name, dsn := range cases {
		t.Run(name, func(t *testing.T) {
			r := e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"notify": map[string]any{"source": "dsn", "dsn": dsn}})
			expect(t, r, http.StatusUnprocessableEntity, "notify_db_password")
			var s lifecycle.Site
			e.do(viewerRole, http.MethodGet, sitePath(id), nil).decode(t, &s)
			if s.Notify.DSN != from {
				t.Fatalf("the site's dsn is %q, want it unchanged", s.Notify.DSN)
			}
		})
	}
	t.Run("dsn parameters only", func(t *testing.T) {
		r := e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"notify": map[string]any{"source": "dsn",
			"dsn": "postgres://maas_listen@127.0.0.1/maasdb?sslmode=disable&application_name=x"}})
		expect(t, r, http.StatusOK, "")
	})
	time.Sleep(200 * time.Millisecond)
	if n, b := tw.conns.Load(), tw.bytes.Load(); n != 0 || b != 0 {
		t.Errorf("the new host got %d connections and %d bytes, want none", n, b)
	}
	if len(e.secrets.data) != 0 {
		t.Errorf("refused changes wrote to Vault: %v", keys(e.secrets.data))
	}
	if got := e.recon.refollowed(); got != before+1 {
		t.Errorf("the feed refollowed %d times, want once (the accepted parameter change)", got-before)
	}
}

// With the password, a new target is proved before anything is stored:
// an impostor that asks for the password in clear never gets it, and an
// unreachable one is refused naming notify.dsn.
func TestNotifyTargetChangeWithThePasswordIsProvedFirst(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	tw := newTripwire(t, "127.0.0.4")
	for _, tt := range []struct{ name, dsn, field string }{
		{"silent server", "postgres://maas_listen@" + tw.addr + "/maasdb?sslmode=disable&connect_timeout=1", "notify.dsn"},
		{"nothing listening", "postgres://maas_listen@127.0.0.1:1/maasdb?sslmode=disable", "notify.dsn"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(adminRole, http.MethodPatch, sitePath(id), map[string]any{"notify": map[string]any{"source": "dsn", "dsn": tt.dsn},
				"notify_db_password": notifyPass})
			expect(t, r, http.StatusUnprocessableEntity, tt.field)
		})
	}
	if len(e.secrets.data) != 0 {
		t.Errorf("refused changes wrote to Vault: %v", keys(e.secrets.data))
	}
	var s lifecycle.Site
	e.do(viewerRole, http.MethodGet, sitePath(id), nil).decode(t, &s)
	if s.Notify != (lifecycle.SiteNotify{}) {
		t.Errorf("notify %+v, want unchanged (off)", s.Notify)
	}
	if tw.bytes.Load() == 0 {
		t.Error("the silent server saw no connection attempt: the password was not proved")
	}
}
