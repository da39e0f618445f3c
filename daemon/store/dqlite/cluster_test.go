//go:build dqlite

package dqlite_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// cluster is a dqlite cluster of nodes in this process, on loopback.
type cluster struct {
	dirs, addrs []string
	nodes       []*dqlite.Node
	tls         func(i int) *dqlite.TLS // nil: plaintext
}

// startCluster starts n nodes, each in its own directory on a free
// loopback port; the second and later join the first. The nodes are
// killed at the end of the test.
func startCluster(t *testing.T, n int, tls func(i int) *dqlite.TLS) *cluster {
	t.Helper()
	c := &cluster{tls: tls}
	for i := range n {
		c.dirs, c.addrs = append(c.dirs, t.TempDir()), append(c.addrs, freeport.Addr(t))
		c.nodes = append(c.nodes, nil)
		c.start(t, i)
	}
	return c
}

// start starts (or restarts) node i and waits until it is ready.
func (c *cluster) start(t *testing.T, i int) {
	t.Helper()
	opts := dqlite.Options{Address: c.addrs[i]}
	if i > 0 {
		opts.Join = c.addrs[:1]
	}
	if c.tls != nil {
		opts.TLS = c.tls(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := dqlite.StartNode(ctx, c.dirs[i], opts)
	if err != nil {
		t.Fatalf("node %d: %v", i, err)
	}
	c.nodes[i] = n
	t.Cleanup(func() { n.Kill() })
}

// leader returns the index of the leader as node i sees it.
func (c *cluster) leader(t *testing.T, i int) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	addr, err := c.nodes[i].Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	l := slices.Index(c.addrs, addr)
	if l < 0 {
		t.Fatalf("leader %s is not a member %v", addr, c.addrs)
	}
	return l
}

// open opens a store on node i's database db, closed at the end of the
// test.
func (c *cluster) open(t *testing.T, i int, opts dqlite.Options) *dqlite.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := c.nodes[i].Open(ctx, opts)
	if err != nil {
		t.Fatalf("open on node %d: %v", i, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// createSite creates site id through s.
func createSite(t *testing.T, s lifecycle.Store, id string) {
	t.Helper()
	if err := s.CreateSite(context.Background(), testSite(id), lifecycle.DefaultSitePolicy(id)); err != nil {
		t.Fatal(err)
	}
}

func testSite(id string) lifecycle.Site {
	return lifecycle.Site{ID: id, Name: "maas-" + id, RegionCode: "dc1", APIBaseURL: "http://10.0.0.1:5240/MAAS",
		PXEIface: "ens19", PXEVLANVID: 46, NodePXEIface: "eno8303"}.WithDefaults()
}
