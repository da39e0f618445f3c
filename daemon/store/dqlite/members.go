//go:build dqlite

package dqlite

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Member is one node of the cluster as the leader knows it.
type Member struct {
	ID      uint64
	Address string
	Role    string // voter, stand-by or spare
}

// Members lists the cluster's nodes, as the leader knows them.
func (n *Node) Members(ctx context.Context) ([]Member, error) {
	const op = "store.Members"
	cli, err := n.leader(ctx)
	if err != nil {
		return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no dqlite leader: %v", err)
	}
	defer cli.Close()
	nodes, err := cli.Cluster(ctx)
	if err != nil {
		return nil, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "dqlite cluster members: %v", err)
	}
	out := make([]Member, 0, len(nodes))
	for _, m := range nodes {
		out = append(out, Member{ID: m.ID, Address: m.Address, Role: m.Role.String()})
	}
	return out, nil
}
