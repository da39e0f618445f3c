//go:build dqlite

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/jonboulle/clockwork"
)

// DqliteDir is the dqlite member's data directory inside state_dir.
const DqliteDir = "dqlite"

// ReplicaFile is the store's local read replica inside state_dir: what
// the admin API's reads answer from while the cluster has no quorum.
const ReplicaFile = "store-replica.sqlite"

// peerCheckTimeout bounds the check of one member's CA and signing key.
const peerCheckTimeout = 3 * time.Second

// openDqlite starts this daemon's member of the dqlite cluster (data in
// <state_dir>/dqlite, TLS with a member certificate from the CA in
// <state_dir>/pki) and opens the store on it. Before it joins, every
// member of store.dqlite.join that answers must present a certificate of
// the same CA carrying the same task-signing key and evidence site key:
// the agents trust one CA and one signing key whichever daemon serves
// them, and every clean certificate of the site verifies with one key.
func openDqlite(ctx context.Context, cfg config.Config, holder string, clock clockwork.Clock, log *slog.Logger) (daemonStore, error) {
	d := cfg.Store.Dqlite
	p, err := openPKIOn(cfg.StateDir, clock, !vaultSiteKey(cfg))
	if err != nil {
		return daemonStore{}, err
	}
	host, _, _ := net.SplitHostPort(d.Address) // validated by config
	m, peerTLS, err := memberTLS(p, host, d.Legacy())
	if err != nil {
		return daemonStore{}, err
	}
	if d.Legacy() {
		log.Warn("store.dqlite.member_trust is transition: the member port also accepts the agent-CA member certificates of earlier releases; set it back to store_ca once every member runs this release with the same store CA")
	}
	if err := checkPeers(ctx, p, m, d.Join, log); err != nil {
		return daemonStore{}, err
	}
	dir := filepath.Join(cfg.StateDir, DqliteDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return daemonStore{}, fmt.Errorf("store: %w", err)
	}
	octx, cancel := context.WithTimeout(ctx, dqlite.OpenTimeout)
	defer cancel()
	log.Info("starting dqlite member", "address", d.Address, "join", d.Join, "dir", dir)
	st, err := dqlite.Open(octx, dir, dqlite.Options{Address: d.Address, Join: d.Join,
		TLS: peerTLS, Replica: filepath.Join(cfg.StateDir, ReplicaFile), Now: clock.Now,
		Logger: log.With("component", "store")})
	if err != nil {
		return daemonStore{}, err
	}
	return daemonStore{Store: st, cluster: dqliteCluster{st: st, daemon: holder}, metrics: raftMetrics(st.Node(), log)}, nil
}

// memberTLS is the TLS a member's node listens and dials with (serve
// and the store commands on a daemon's data dir alike): the store CA's
// member certificate for host, and with legacy the agent-CA member
// certificates of earlier releases accepted too (pki.NewMemberTLS).
func memberTLS(p *pki.PKI, host string, legacy bool) (pki.MemberTLS, *dqlite.TLS, error) {
	m, err := p.NewMemberTLS(host, legacy)
	if err != nil {
		return pki.MemberTLS{}, nil, err
	}
	return m, &dqlite.TLS{Listen: m.Listen, Dial: m.Dial}, nil
}

// checkPeers refuses to join members that do not share this daemon's
// store CA and task-signing key; a member that does not answer is
// skipped.
func checkPeers(ctx context.Context, p *pki.PKI, m pki.MemberTLS, join []string, log *slog.Logger) error {
	for _, addr := range join {
		cctx, cancel := context.WithTimeout(ctx, peerCheckTimeout)
		err := p.CheckPeer(cctx, addr, m)
		cancel()
		switch {
		case errors.Is(err, pki.ErrPeerMismatch):
			return fmt.Errorf("store.dqlite.join: %w; copy %s, %s, %s, %s, %s and %s from the first member's state_dir/pki into this daemon's before its first start",
				err, pki.CACertFile, pki.CAKeyFile, pki.StoreCACertFile, pki.StoreCAKeyFile, pki.SigningKeyFile, cert.SiteKeyFile)
		case err != nil:
			log.Warn("dqlite member not reachable for the CA check; joining anyway", "member", addr, "err", err)
		}
	}
	return nil
}

// dqliteCluster describes the dqlite cluster for GET /cluster and
// removes members for DELETE /cluster/members/{id}.
type dqliteCluster struct {
	st     *dqlite.Store
	daemon string
}

// Cluster lists the members as the leader knows them, each with the
// answer of a probe made now (dqlite has no per-follower lag to report).
func (c dqliteCluster) Cluster(ctx context.Context) (admin.ClusterInfo, error) {
	n := c.st.Node()
	info := admin.ClusterInfo{Backend: config.BackendDqlite, Clustered: true, Daemon: c.daemon, Self: n.Address()}
	leader, err := n.Leader(ctx)
	if err != nil {
		return info, err
	}
	members, err := n.Members(ctx)
	if err != nil {
		return info, err
	}
	info.Leader = leader
	addrs := make([]string, len(members))
	for i, m := range members {
		addrs[i] = m.Address
	}
	for i, r := range n.ProbeAll(ctx, addrs) {
		m := members[i]
		cm := admin.ClusterMember{ID: m.ID, Address: m.Address, Role: m.Role,
			Reachable: r.Answered, RoundTripSeconds: r.RoundTrip.Seconds()}
		if r.Err != nil {
			cm.ProbeError = r.Err.Error()
		}
		info.Members = append(info.Members, cm)
	}
	return info, nil
}

// RemoveMember removes a stopped member through the leader.
func (c dqliteCluster) RemoveMember(ctx context.Context, id uint64) (admin.ClusterMember, error) {
	m, err := c.st.Node().RemoveMember(ctx, id)
	if err != nil {
		return admin.ClusterMember{}, err
	}
	return admin.ClusterMember{ID: m.ID, Address: m.Address, Role: m.Role}, nil
}
