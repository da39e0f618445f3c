//go:build dqlite

package dqlite

import (
	"context"
	"time"

	"github.com/canonical/go-dqlite/client"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// moveLeadership asks the leader to hand its leadership to another voter
// that answers. A write transaction is held on the leader, over its
// client's connection, from its first write to COMMIT; a member that
// stops between the two without closing its connection (SIGSTOP, a
// paused VM, a half-open partition) keeps the database's write lock
// there for as long as its connection stays open, and every other write
// of the cluster meets "database is locked". A leader that steps down
// drops its open transactions: none of them was replicated, so nothing
// committed is lost, and the stalled member's transaction fails when it
// wakes (its connection leads to a follower now).
func (n *Node) moveLeadership(ctx context.Context) error {
	const op = "store.moveLeadership"
	cli, err := n.leader(ctx)
	if err != nil {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no dqlite leader: %v", err)
	}
	defer cli.Close()
	leader, err := cli.Leader(ctx)
	if err != nil || leader == nil {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no dqlite leader: %v", err)
	}
	nodes, err := cli.Cluster(ctx)
	if err != nil {
		return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "dqlite cluster members: %v", err)
	}
	for _, m := range nodes {
		if m.ID == leader.ID || m.Role != client.Voter {
			continue
		}
		if err := cli.Transfer(ctx, m.ID); err == nil {
			n.log.Warn("dqlite write lock held past its bound by a stalled transaction: leadership moved to drop it",
				"from", leader.Address, "to", m.Address)
			return nil
		}
	}
	return lifecycle.Errorf(lifecycle.CodeUnavailable, op, "no other voter took the leadership from %s", leader.Address)
}

// lockMoveDue says whether this node may move the leadership for a
// stalled lock now: at most once per lockBound, whichever of its stores
// asks.
func (n *Node) lockMoveDue(now time.Time) bool {
	last := n.lockMoved.Load()
	if last != 0 && now.Sub(time.Unix(0, last)) < lockBound {
		return false
	}
	return n.lockMoved.CompareAndSwap(last, now.UnixNano())
}
