//go:build dqlite

package dqlite_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// memberIDs maps each member's address to its id, as node i sees them.
func (c *cluster) memberIDs(t *testing.T, i int) map[string]uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ms, err := c.nodes[i].Members(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, m := range ms {
		out[m.Address] = m.ID
	}
	return out
}

// RemoveMember refuses this node itself, the leader, a member that still
// answers and an unknown id, each with the code the API answers and no
// change to the cluster; it removes a stopped member, after which the
// cluster has the two others and still takes writes.
func TestRemoveMember(t *testing.T) {
	c := startCluster(t, 3, nil)
	l := c.leader(t, 0)
	via, gone := (l+1)%3, (l+2)%3 // the removal goes through via; gone is removed
	s := c.open(t, via, dqlite.Options{Timeout: 10 * time.Second})
	ids := c.memberIDs(t, via)
	ctx := context.Background()
	refusals := []struct {
		name string
		id   uint64
		code lifecycle.Code
	}{
		{"unknown", 4242, lifecycle.CodeNotFound},
		{"self", ids[c.addrs[via]], lifecycle.CodeConflict},
		{"leader", ids[c.addrs[l]], lifecycle.CodeConflict},
		{"still answers", ids[c.addrs[gone]], lifecycle.CodeConflict},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.nodes[via].RemoveMember(ctx, tt.id)
			if got := lifecycle.ErrorCode(err); got != tt.code {
				t.Fatalf("RemoveMember(%d) = %v, want code %s", tt.id, err, tt.code)
			}
			t.Logf("refused: %v", err)
		})
	}
	if n := len(c.memberIDs(t, via)); n != 3 {
		t.Fatalf("%d members after the refusals, want 3", n)
	}

	c.nodes[gone].Kill()
	m, err := c.nodes[via].RemoveMember(ctx, ids[c.addrs[gone]])
	if err != nil {
		t.Fatalf("remove the stopped member: %v", err)
	}
	if m.Address != c.addrs[gone] || m.Role != "voter" {
		t.Errorf("removed %+v, want the voter at %s", m, c.addrs[gone])
	}
	want := []string{c.addrs[l], c.addrs[via]}
	slices.Sort(want)
	var got []string
	for a := range c.memberIDs(t, via) {
		got = append(got, a)
	}
	slices.Sort(got)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("members after the removal (-want +got):\n%s", d)
	}
	createSite(t, s, "after-remove")
}

// Probe tells a member that answers from one that is stopped.
func TestProbe(t *testing.T) {
	c := startCluster(t, 2, nil)
	c.nodes[1].Kill()
	got := c.nodes[0].ProbeAll(context.Background(), c.addrs)
	if !got[0].Answered || got[0].Err != nil || got[0].RoundTrip <= 0 {
		t.Errorf("probe of the live member: %+v, want an answer with a round trip", got[0])
	}
	if got[1].Answered || got[1].Err == nil {
		t.Errorf("probe of the stopped member: %+v, want no answer and the reason", got[1])
	}
}
