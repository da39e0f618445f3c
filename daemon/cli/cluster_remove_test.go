package cli_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/api/admin/openapitest"
	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// threeMembers is a dqlite cluster as the store wiring describes it:
// member 1 is this daemon's (the removal refuses it), member 3 stopped.
type threeMembers struct {
	mu      sync.Mutex
	members []admin.ClusterMember
}

func newThreeMembers() *threeMembers {
	return &threeMembers{members: []admin.ClusterMember{
		{ID: 1, Address: "10.0.0.1:9001", Role: "voter", Reachable: true, RoundTripSeconds: 0.0012},
		{ID: 2, Address: "10.0.0.2:9001", Role: "voter", Reachable: true, RoundTripSeconds: 0.0034},
		{ID: 3, Address: "10.0.0.3:9001", Role: "voter", ProbeError: "connection refused"},
	}}
}

func (c *threeMembers) Cluster(context.Context) (admin.ClusterInfo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return admin.ClusterInfo{Backend: "dqlite", Clustered: true, Daemon: "region-1", Self: "10.0.0.1:9001",
		Leader: "10.0.0.2:9001", Members: append([]admin.ClusterMember(nil), c.members...)}, nil
}

func (c *threeMembers) RemoveMember(_ context.Context, id uint64) (admin.ClusterMember, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id == 1 {
		return admin.ClusterMember{}, lifecycle.Errorf(lifecycle.CodeConflict, "store.RemoveMember", "member 1 is this daemon's own: stop this daemon first")
	}
	for i, m := range c.members {
		if m.ID == id {
			c.members = append(c.members[:i], c.members[i+1:]...)
			return m, nil
		}
	}
	return admin.ClusterMember{}, lifecycle.Errorf(lifecycle.CodeNotFound, "store.RemoveMember", "no member %d", id)
}

// clustered serves d's store through an admin API on a clustered store.
func (d *daemon) clustered(c admin.Cluster) map[string]string {
	srv := httptest.NewServer(openapitest.Handler(d.t, admin.New(admin.Config{Store: d.store, Cluster: c}).Handler()))
	d.t.Cleanup(srv.Close)
	return map[string]string{"MAAS_SIDECAR_ADDR": srv.URL}
}

// cluster remove takes a member's address or id, sends the reason to the
// audit log, and exits with the API's codes for a refusal or an unknown
// member; cluster status shows which members answer.
func TestClusterRemove(t *testing.T) {
	d := startDaemon(t)
	c := newThreeMembers()
	env := d.clustered(c)

	r := d.cliEnv(env, "cluster", "status")
	if r.code != 0 || !strings.Contains(r.stdout, "ANSWERS") {
		t.Fatalf("status: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range [][]string{{"1", "10.0.0.1:9001", "voter", "no", "yes", "1.2ms"}, {"3", "10.0.0.3:9001", "voter", "no", "no", "-"}} {
		if !hasRow(r.stdout, want) {
			t.Errorf("status:\n%s\nwant a row %v", r.stdout, want)
		}
	}

	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown address", []string{"10.0.0.9:9001"}, cli.ExitNotFound, "no member at 10.0.0.9:9001"},
		{"unknown id", []string{"42"}, cli.ExitNotFound, "no member 42"},
		{"own member", []string{"10.0.0.1:9001"}, cli.ExitConflict, "stop this daemon first"},
		{"no argument", nil, cli.ExitUsage, "ADDRESS|MEMBER_ID"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			r := d.cliEnv(env, append([]string{"cluster", "remove"}, tt.args...)...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, tt.code, tt.want)
			}
		})
	}

	r = d.cliEnv(env, "cluster", "remove", "10.0.0.3:9001", "--reason", "host retired")
	if r.code != 0 || !strings.Contains(r.stdout, "member 3 (10.0.0.3:9001, voter) removed") {
		t.Fatalf("remove: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if info, _ := c.Cluster(context.Background()); len(info.Members) != 2 {
		t.Errorf("members after the removal: %+v", info.Members)
	}
	es, err := d.store.ListAudit(context.Background(), lifecycle.AuditFilter{Action: "cluster.remove_member", Limit: 10})
	d.must(err)
	if len(es) != 1 || es[0].Reason != "host retired" || es[0].TargetID != "3" {
		t.Errorf("audit %+v, want the removal of member 3 with its reason", es)
	}
}

// On a bolt store there is nothing to remove: the command says so, by
// address or by id.
func TestClusterRemoveSingleStore(t *testing.T) {
	d := startDaemon(t)
	for _, arg := range []string{"3", "10.0.0.3:9001"} {
		r := d.cli("", "cluster", "remove", arg)
		if r.code != cli.ExitConflict || !strings.Contains(r.stderr, "not clustered") {
			t.Errorf("remove %s: exit %d, stderr %q; want %d and the store is not clustered", arg, r.code, r.stderr, cli.ExitConflict)
		}
	}
}

// hasRow reports whether a line of out has exactly the fields want.
func hasRow(out string, want []string) bool {
	for line := range strings.Lines(out) {
		if strings.Join(strings.Fields(line), " ") == strings.Join(want, " ") {
			return true
		}
	}
	return false
}
