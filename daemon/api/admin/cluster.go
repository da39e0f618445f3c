package admin

import (
	"context"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ClusterMember is one member of the store's cluster.
//
// Lag: dqlite does not tell how far a follower's log trails the
// leader's, so the status reports what can be known instead: whether the
// member answered a request just now (Reachable, or ProbeError saying
// why not) and how long the answer took. A member that answers is
// replicating; one that does not is falling behind for as long as it
// stays silent, and catches up from the leader when it answers again.
type ClusterMember struct {
	ID      uint64 `json:"id"`
	Address string `json:"address"`
	Role    string `json:"role"` // voter, stand-by or spare
	// Reachable is true when the member answered a probe of this
	// request; RoundTripSeconds is how long the probe took.
	Reachable        bool    `json:"reachable"`
	RoundTripSeconds float64 `json:"round_trip_seconds"`
	ProbeError       string  `json:"probe_error,omitempty"`
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

// Cluster describes the store's cluster and changes its membership (the
// daemon's store wiring satisfies it). Cluster's errors: unavailable
// without a quorum. RemoveMember removes member id and returns it as it
// was; errors: not_found for an unknown id, conflict for a member that
// may not go (this daemon's own, the leader, one still answering) or a
// store that is not clustered, unavailable without a quorum.
type Cluster interface {
	Cluster(ctx context.Context) (ClusterInfo, error)
	RemoveMember(ctx context.Context, id uint64) (ClusterMember, error)
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

func (singleStore) RemoveMember(context.Context, uint64) (ClusterMember, error) {
	return ClusterMember{}, ErrNotClustered
}
