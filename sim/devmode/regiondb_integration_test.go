//go:build integration

package devmode

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// siteRecorder keeps the site Seed creates.
type siteRecorder struct{ site lifecycle.Site }

func (r *siteRecorder) CreateSite(_ context.Context, s lifecycle.Site, _ lifecycle.SitePolicy) error {
	r.site = s
	return nil
}

// The region database: Seed points the dev site at the role's DSN with
// its password in memory; the role logs in, LISTENs and hears a machine
// the simulator creates, and can do nothing else (no table, no
// superuser, PUBLIC without CONNECT on maasdb); Close removes the cluster.
func TestRegionDBLeastPrivilegedRole(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := New(Options{StateDir: t.TempDir(), Hosts: 1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.StartRegionDB(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	var rec siteRecorder
	if err := s.Seed(ctx, &rec); err != nil {
		t.Fatal(err)
	}
	if want := (lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: s.RegionDBDSN()}); rec.site.Notify != want {
		t.Fatalf("site notify = %+v, want %+v", rec.site.Notify, want)
	}
	sec, err := s.Secrets.Read(ctx, lifecycle.NotifyDBPasswordVaultPath(SiteID))
	if err != nil || len(sec["password"]) < 32 {
		t.Fatalf("notify-db secret = %v, %v: want a random password", len(sec["password"]), err)
	}
	cfg, err := pgx.ParseConfig(s.RegionDBDSN())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Password = sec["password"]
	role, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("the role cannot log in: %v", err)
	}
	defer role.Close(ctx)
	if _, err := role.Exec(ctx, "LISTEN machine_create"); err != nil {
		t.Fatal(err)
	}
	sid, err := s.Sim.AddMachine(maassim.HostSpec{}, "gpu-pg", maassim.StatusReady)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := role.WaitForNotification(ctx); err != nil || n.Payload != sid {
		t.Fatalf("notification %+v, %v; want machine_create %s", n, err, sid)
	}
	var pe *pgconn.PgError
	if _, err := role.Exec(ctx, "SELECT count(*) FROM maasserver_node"); !errors.As(err, &pe) || pe.Code != "42501" {
		t.Errorf("the role read maasserver_node: %v, want permission denied (42501)", err)
	}
	checkPrivileges(ctx, t, s)
	port := s.db.cluster.Port()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), time.Second); err == nil {
		c.Close()
		t.Fatal("PostgreSQL still listens after Close")
	}
}

// checkPrivileges: the role is no superuser and cannot create, and only
// it (not PUBLIC) has CONNECT on maasdb.
func checkPrivileges(ctx context.Context, t *testing.T, s *Site) {
	t.Helper()
	su, err := pgx.Connect(ctx, s.db.cluster.SuperDSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer su.Close(ctx)
	var super, createDB, createRole, public, own bool
	err = su.QueryRow(ctx, `SELECT rolsuper, rolcreatedb, rolcreaterole,
		has_database_privilege('public', '`+RegionDBName+`', 'CONNECT'),
		has_database_privilege('`+RegionDBRole+`', '`+RegionDBName+`', 'CONNECT')
		FROM pg_roles WHERE rolname = '`+RegionDBRole+`'`).Scan(&super, &createDB, &createRole, &public, &own)
	if err != nil {
		t.Fatal(err)
	}
	if super || createDB || createRole || public || !own {
		t.Errorf("superuser %v, createdb %v, createrole %v, PUBLIC connect %v, role connect %v; want only the role's connect",
			super, createDB, createRole, public, own)
	}
}
