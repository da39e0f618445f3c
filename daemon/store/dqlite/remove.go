//go:build dqlite

package dqlite

import (
	"context"

	"github.com/canonical/go-dqlite/client"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// RemoveMember removes member id from the cluster through the leader and
// returns it as it was. It refuses, as a conflict saying what to do
// instead, to remove this node itself, the leader (which is also the
// last voter of a one-voter cluster), or a member that still answers:
// stop that member's daemon first, so that the cluster's voters never
// include a removed node still acting as one. Removing a stopped member
// never costs the quorum: the reachable voters stay a majority of the
// smaller set. Errors: not_found for an unknown id, conflict as above,
// unavailable without a leader.
func (n *Node) RemoveMember(ctx context.Context, id uint64) (Member, error) {
	const op = "store.RemoveMember"
	cli, err := n.leader(ctx)
	if err != nil {
		return Member{}, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no dqlite leader: %v", err)
	}
	defer cli.Close()
	m, err := n.removable(ctx, cli, id)
	if err != nil {
		return Member{}, err
	}
	if err := cli.Remove(ctx, id); err != nil {
		return Member{}, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "remove member %d (%s): %v", id, m.Address, err)
	}
	n.log.Info("dqlite member removed", "member", id, "address", m.Address, "role", m.Role)
	return m, nil
}

// removable finds member id in the leader's configuration and checks
// that it may go.
func (n *Node) removable(ctx context.Context, cli *client.Client, id uint64) (Member, error) {
	const op = "store.RemoveMember"
	leader, err := cli.Leader(ctx)
	if err != nil || leader == nil {
		return Member{}, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no dqlite leader: %v", err)
	}
	nodes, err := cli.Cluster(ctx)
	if err != nil {
		return Member{}, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "dqlite cluster members: %v", err)
	}
	var m Member
	for _, x := range nodes {
		if x.ID == id {
			m = Member{ID: x.ID, Address: x.Address, Role: x.Role.String()}
		}
	}
	switch {
	case m.ID == 0:
		return m, lifecycle.Errorf(lifecycle.CodeNotFound, op, "no member %d in the cluster (`maas-sidecar cluster status` lists them)", id)
	case id == n.app.ID():
		return m, lifecycle.Errorf(lifecycle.CodeConflict, op,
			"member %d (%s) is this daemon's own: stop this daemon, then remove it through another member's daemon", id, m.Address)
	case id == leader.ID:
		return m, lifecycle.Errorf(lifecycle.CodeConflict, op,
			"member %d (%s) is the Raft leader: stop its daemon (a graceful stop hands the leadership over) and remove it once another member leads", id, m.Address)
	}
	if r := n.Probe(ctx, m.Address); r.Answered {
		return m, lifecycle.Errorf(lifecycle.CodeConflict, op,
			"member %d (%s) still answers: stop its daemon first, then remove it", id, m.Address)
	}
	return m, nil
}
