//go:build dqlite

package workflow_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

func init() {
	benchStores = append(benchStores, benchStore{name: "dqlite3_leader", open: openDqlite3})
}

// openDqlite3 starts a 3-node dqlite cluster in this process on loopback
// (plaintext Raft, each node in its own directory, the second and third
// joining the first), checks that all three are voters, and opens the
// store on the node that is the Raft leader. The nodes stop at the end of
// the test, after the site has closed the store.
func openDqlite3(t testing.TB) lifecycle.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var nodes []*dqlite.Node
	for i := range 3 {
		opts := dqlite.Options{Address: freeport.Addr(t), Logger: quiet()}
		if i > 0 {
			opts.Join = []string{nodes[0].Address()}
		}
		n, err := dqlite.StartNode(ctx, t.TempDir(), opts)
		must(t, err)
		t.Cleanup(func() { n.Close() })
		nodes = append(nodes, n)
	}
	waitVoters(ctx, t, nodes[0], 3)
	leader, err := nodes[0].Leader(ctx)
	must(t, err)
	for _, n := range nodes {
		if n.Address() == leader {
			st, err := n.Open(ctx, dqlite.Options{Logger: quiet()})
			must(t, err)
			return st
		}
	}
	t.Fatalf("leader %s is not one of the cluster's nodes", leader)
	return nil
}

// waitVoters waits until the cluster has want voters.
func waitVoters(ctx context.Context, t testing.TB, n *dqlite.Node, want int) {
	t.Helper()
	for {
		ms, err := n.Members(ctx)
		voters := 0
		for _, m := range ms {
			if m.Role == "voter" {
				voters++
			}
		}
		if err == nil && voters == want {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("cluster members %+v (%v): want %d voters", ms, err, want)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
