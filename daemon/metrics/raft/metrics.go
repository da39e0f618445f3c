package raft

import "github.com/prometheus/client_golang/prometheus"

// Roles are the values of the role label of maas_sidecar_store_raft_role:
// voter is a voting follower; none is a node that is not (or no longer) a
// member of the cluster.
var Roles = []string{RoleLeader, RoleVoter, RoleStandBy, RoleSpare, RoleNone}

// The roles a member can have, as dqlite names them, plus leader and none.
const (
	RoleLeader  = "leader"
	RoleVoter   = "voter"
	RoleStandBy = "stand-by"
	RoleSpare   = "spare"
	RoleNone    = "none"
)

// memberRoles are the roles of maas_sidecar_store_cluster_members.
var memberRoles = []string{RoleVoter, RoleStandBy, RoleSpare}

type gauges struct {
	role    *prometheus.GaugeVec
	changes prometheus.Counter
	quorum  prometheus.Gauge
	members *prometheus.GaugeVec
}

func newGauges(reg prometheus.Registerer) gauges {
	g := gauges{
		role: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_store_raft_role",
			Help: "1 for this member's current Raft role (leader, voter, stand-by, spare, none), 0 for the others; kept at the last role seen while no leader answers."}, []string{"role"}),
		changes: prometheus.NewCounter(prometheus.CounterOpts{Name: "maas_sidecar_store_raft_leader_changes_total",
			Help: "Changes of the Raft leader's address that this member observed (sampled every few seconds; a lost and regained quorum under the same leader is no change)."}),
		quorum: prometheus.NewGauge(prometheus.GaugeOpts{Name: "maas_sidecar_store_quorum",
			Help: "1 while this member reaches a Raft leader (the cluster has a quorum), 0 otherwise."}),
		members: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "maas_sidecar_store_cluster_members",
			Help: "Members of the store's cluster by role, as the leader last listed them."}, []string{"role"}),
	}
	reg.MustRegister(g.role, g.changes, g.quorum, g.members)
	g.setRole(RoleNone)
	for _, r := range memberRoles {
		g.members.WithLabelValues(r)
	}
	return g
}

func (g gauges) setRole(role string) {
	for _, r := range Roles {
		v := 0.0
		if r == role {
			v = 1
		}
		g.role.WithLabelValues(r).Set(v)
	}
}

func (g gauges) setMembers(ms []Member) {
	n := map[string]int{}
	for _, m := range ms {
		n[m.Role]++
	}
	for _, r := range memberRoles {
		g.members.WithLabelValues(r).Set(float64(n[r]))
	}
}
