package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// daemonStore is the open store plus the readiness check built on it and
// the description of its cluster for the admin API.
type daemonStore struct {
	lifecycle.Store
	cluster admin.Cluster
	// metrics registers the store's own metrics (the Raft metrics of a
	// dqlite member) and returns the loop that keeps them; nil for bolt.
	metrics func(prometheus.Registerer) func(context.Context) error
}

// Check passes when the store answers a read (/readyz): a clustered
// store without quorum is not ready, since it accepts no write. A store
// that knows its quorum is lost says so at once, without asking.
func (s daemonStore) Check(ctx context.Context) error {
	if q, ok := s.Store.(interface{ QuorumLost() bool }); ok && q.QuorumLost() {
		return errNoQuorum
	}
	_, err := s.ListAdminTokens(ctx)
	return err
}

// Live passes when the store answers a read, from its stale snapshot
// included (the systemd watchdog): a daemon whose cluster lost its
// quorum still serves reads, and a restart would not bring the quorum
// back.
func (s daemonStore) Live(ctx context.Context) error {
	ctx, _ = lifecycle.AllowStale(ctx)
	_, err := s.ListAdminTokens(ctx)
	return err
}

// errNoQuorum is /readyz's answer on a member whose store lost its quorum.
var errNoQuorum = errors.New("the store has no quorum: this member cannot reach a majority of the store's members")

// startStore opens the store of store.backend (bolt's commit latency goes
// to onCommit) and makes sure this daemon's admin token exists; on
// failure nothing stays open. With a shared store each daemon keeps its
// own bootstrap token, bootstrap-<daemon name>.
func startStore(ctx context.Context, cfg config.Config, clock clockwork.Clock, log *slog.Logger, onCommit func(time.Duration)) (daemonStore, error) {
	holder := cfg.Holder(os.Hostname)
	var st daemonStore
	var err error
	switch cfg.Store.Backend {
	case config.BackendDqlite:
		st, err = openDqlite(ctx, cfg, holder, clock, log)
	default:
		st.cluster = singleStore{daemon: holder}
		st.Store, err = bolt.Open(filepath.Join(cfg.StateDir, bolt.FileName), bolt.Options{
			Logger:      log.With("component", "store"),
			LockTimeout: cfg.StoreLockTimeout,
			OnCommit:    onCommit,
			Now:         clock.Now,
		})
	}
	if err != nil {
		return daemonStore{}, err
	}
	name := admintoken.Name
	if cfg.Store.Shared() {
		name = admintoken.BootstrapName(holder)
	}
	_, err = admintoken.Ensure(ctx, st, admintoken.Options{Dir: cfg.StateDir, Name: name, Clock: clock,
		Logger: log.With("component", "admintoken")})
	if err != nil {
		return daemonStore{}, errors.Join(err, st.Close())
	}
	return st, nil
}

// singleStore is the cluster of a bolt store: this daemon alone.
type singleStore struct{ daemon string }

func (s singleStore) Cluster(context.Context) (admin.ClusterInfo, error) {
	return admin.ClusterInfo{Backend: config.BackendBolt, Daemon: s.daemon, Members: []admin.ClusterMember{}}, nil
}

// RemoveMember refuses: a bolt store has no members.
func (singleStore) RemoveMember(context.Context, uint64) (admin.ClusterMember, error) {
	return admin.ClusterMember{}, admin.ErrNotClustered
}
