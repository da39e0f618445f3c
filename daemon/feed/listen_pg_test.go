package feed_test

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

// listenPassword is the listening role's password, kept in Vault.
const listenPassword = "listen-secret-0123"

// regionDB starts a real PostgreSQL as the region database: maasdb, which
// the simulator mirrors into as the superuser, and maas_listen, a role
// that may only connect (PUBLIC's CONNECT revoked) and LISTEN.
func regionDB(t testing.TB) *pgtest.Server {
	pg := pgtest.Start(t)
	pg.Exec(t, "", "CREATE DATABASE maasdb",
		"REVOKE CONNECT ON DATABASE maasdb FROM PUBLIC",
		"CREATE ROLE maas_listen LOGIN PASSWORD '"+listenPassword+"'",
		"GRANT CONNECT ON DATABASE maasdb TO maas_listen",
		"CREATE ROLE maas_nobody LOGIN PASSWORD '"+listenPassword+"'")
	return pg
}

// pgListenOpts: the simulator mirrors into pg and the site listens on it
// as user through the real listener; webhooks off, cursor and resync
// hourly unless the caller changes them.
func pgListenOpts(pg *pgtest.Server, user, database string) opts {
	return opts{poll: time.Hour, resync: time.Hour, mirror: pg.SuperDSN("maasdb"), listenPG: true,
		notify:  lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: pg.DSN(user, "", database)},
		secrets: memSecrets{lifecycle.NotifyDBPasswordVaultPath(siteID): {"password": listenPassword}}}
}

func listenBenchOpts(b *testing.B) opts {
	return pgListenOpts(regionDB(b), "maas_listen", "maasdb")
}
