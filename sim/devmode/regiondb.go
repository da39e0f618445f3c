package devmode

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/internal/pgcluster"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// The dev region database and the least-privileged role the dev site
// LISTENs as (docs/operations.md, "A least-privileged role").
const (
	RegionDBName = "maasdb"
	RegionDBRole = "maas_listen"
)

// regionDB is dev mode's MAAS region database: a throwaway cluster the
// simulator mirrors its machines into.
type regionDB struct {
	cluster  *pgcluster.Cluster
	password string // the role's, random at each start
	stop     context.CancelFunc
	mirror   *maassim.Mirror
	once     sync.Once
	removed  error
}

// StartRegionDB starts a throwaway PostgreSQL cluster as the site's MAAS
// region database: database maasdb, which the simulator mirrors into so
// that MAAS's triggers notify every machine change, and a role that can
// only connect to it. Seed then points the dev site's notify settings at
// it. An error says why there is none (PostgreSQL is not installed, or it
// did not start); nothing is left running then. Run's end or Close
// removes the cluster.
func (s *Site) StartRegionDB(ctx context.Context) error {
	if err := pgcluster.Available(); err != nil {
		return err
	}
	c, err := pgcluster.Create(randomHex(16))
	if err != nil {
		return err
	}
	db := &regionDB{cluster: c, password: randomHex(16)}
	if err := db.setUp(ctx); err != nil {
		return errors.Join(err, c.Remove())
	}
	mctx, cancel := context.WithCancel(context.Background())
	if db.mirror, err = s.Sim.MirrorPostgres(mctx, c.SuperDSN(RegionDBName), maassim.MirrorOptions{}); err != nil {
		cancel()
		return errors.Join(err, c.Remove())
	}
	db.stop, s.db = cancel, db
	return nil
}

// setUp creates the database and the role: LOGIN and CONNECT on maasdb
// only, PUBLIC's CONNECT revoked, as docs/operations.md tells operators.
func (db *regionDB) setUp(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, db.cluster.SuperDSN("postgres"))
	if err != nil {
		return fmt.Errorf("dev region database: %w", err)
	}
	defer conn.Close(context.Background())
	for _, q := range []string{
		"CREATE DATABASE " + RegionDBName,
		"CREATE ROLE " + RegionDBRole + " LOGIN PASSWORD '" + db.password + "'", // hex: nothing to quote
		"REVOKE CONNECT ON DATABASE " + RegionDBName + " FROM PUBLIC",
		"GRANT CONNECT ON DATABASE " + RegionDBName + " TO " + RegionDBRole,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("dev region database: %w", err)
		}
	}
	return nil
}

// RegionDBDSN is the role's DSN (no password) on the region database, ""
// without one.
func (s *Site) RegionDBDSN() string {
	if s.db == nil {
		return ""
	}
	return s.db.cluster.DSN(RegionDBRole, "", RegionDBName)
}

// notify is the dev site's notify settings: off without a region database.
func (s *Site) notify() lifecycle.SiteNotify {
	if s.db == nil {
		return lifecycle.SiteNotify{}
	}
	return lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: s.RegionDBDSN()}
}

// closeDB stops the mirror and removes the cluster, if there is one
// (once: Run's end and Close may both call it).
func (s *Site) closeDB() error {
	db := s.db
	if db == nil {
		return nil
	}
	db.once.Do(func() {
		db.stop()
		<-db.mirror.Done()
		db.removed = db.cluster.Remove()
	})
	return db.removed
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
