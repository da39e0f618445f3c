package admin

import (
	"context"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ClusterMember is one member of the store's cluster.
type ClusterMember struct {
	ID      uint64 `json:"id"`
	Address string `json:"address"`
	Role    string `json:"role"` // voter, stand-by or spare
}

// ClusterInfo is the store's replication as this daemon sees it.
type ClusterInfo struct {
	// Backend is the store backend: bolt or dqlite.
	Backend string `json:"backend"`
	// Clustered is true for a store replicated across daemons.
	Clustered bool `json:"clustered"`
	// Daemon names this daemon (its lease holder name); Self is its
	// member address; Leader the Raft leader's.
	Daemon  string          `json:"daemon"`
	Self    string          `json:"self,omitempty"`
	Leader  string          `json:"leader,omitempty"`
	Members []ClusterMember `json:"members"`
}

// Cluster describes the store's cluster (the daemon's store wiring
// satisfies it). Errors: unavailable without a quorum.
type Cluster interface {
	Cluster(ctx context.Context) (ClusterInfo, error)
}

// siteLease is one site's line of GET /cluster: the daemon driving its
// runs, under which epoch, until when (zero holder: no daemon holds it).
type siteLease struct {
	SiteID    string     `json:"site_id"`
	SiteName  string     `json:"site_name"`
	Holder    string     `json:"holder"`
	Epoch     uint64     `json:"epoch"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	Expired   bool       `json:"expired"`
}

// clusterStatus answers GET /cluster: the members, the leader and the
// lease holder of every live site.
func (a *API) clusterStatus(r *http.Request, _ *call) (int, any, error) {
	ctx := r.Context()
	info, err := a.cluster.Cluster(ctx)
	if err != nil {
		return 0, nil, err
	}
	if info.Members == nil {
		info.Members = []ClusterMember{}
	}
	sites, err := a.store.ListSites(ctx)
	if err != nil {
		return 0, nil, err
	}
	leases := []siteLease{}
	now := a.now()
	for _, s := range sites {
		if s.Status == lifecycle.SiteDeleted {
			continue
		}
		line := siteLease{SiteID: s.ID, SiteName: s.Name}
		l, err := a.store.GetLease(ctx, s.ID)
		switch {
		case err == nil:
			exp := l.ExpiresAt
			line.Holder, line.Epoch, line.ExpiresAt, line.Expired = l.Holder, l.Epoch, &exp, !now.Before(exp)
		case lifecycle.ErrorCode(err) != lifecycle.CodeNotFound:
			return 0, nil, err
		}
		leases = append(leases, line)
	}
	return http.StatusOK, map[string]any{"cluster": info, "leases": leases}, nil
}

// singleStore is the Cluster of an API built without one: a store that
// one daemon opens alone.
type singleStore struct{}

func (singleStore) Cluster(context.Context) (ClusterInfo, error) {
	return ClusterInfo{Backend: "bolt", Members: []ClusterMember{}}, nil
}
