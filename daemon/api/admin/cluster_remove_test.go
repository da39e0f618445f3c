package admin_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// fakeCluster is a dqlite cluster as the store wiring describes it: the
// members it holds, and refusals by id as the dqlite store answers them.
type fakeCluster struct {
	mu      sync.Mutex
	members map[uint64]admin.ClusterMember
	refuse  map[uint64]string
}

func (f *fakeCluster) Cluster(context.Context) (admin.ClusterInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	info := admin.ClusterInfo{Backend: "dqlite", Clustered: true, Daemon: "a", Self: "10.0.0.1:9001", Leader: "10.0.0.1:9001"}
	for _, m := range f.members {
		info.Members = append(info.Members, m)
	}
	return info, nil
}

func (f *fakeCluster) RemoveMember(_ context.Context, id uint64) (admin.ClusterMember, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if why, ok := f.refuse[id]; ok {
		return admin.ClusterMember{}, lifecycle.Errorf(lifecycle.CodeConflict, "store.RemoveMember", "%s", why)
	}
	m, ok := f.members[id]
	if !ok {
		return m, lifecycle.Errorf(lifecycle.CodeNotFound, "store.RemoveMember", "no member %d", id)
	}
	delete(f.members, id)
	return m, nil
}

// withCluster serves e's store through an API whose store is clustered.
func (e *env) withCluster(c admin.Cluster) {
	e.handler = admin.New(admin.Config{Store: e.store, Cluster: c}).Handler()
}

const members = "/api/v1/admin/cluster/members/"

// DELETE /cluster/members/{id} removes a member (admin only) and audits
// it with the reason; bad ids, unknown members and refused members come
// back as problems, and change nothing.
func TestRemoveClusterMember(t *testing.T) {
	e := newEnv(t)
	c := &fakeCluster{members: map[uint64]admin.ClusterMember{
		1: {ID: 1, Address: "10.0.0.1:9001", Role: "voter"},
		2: {ID: 2, Address: "10.0.0.2:9001", Role: "voter"},
		3: {ID: 3, Address: "10.0.0.3:9001", Role: "voter"},
	}, refuse: map[uint64]string{1: "member 1 (10.0.0.1:9001) is this daemon's own: stop this daemon, then remove it through another member's daemon"}}
	e.withCluster(c)
	refusals := []struct {
		name, id string
		role     lifecycle.Role
		status   int
		field    string
		detail   string
	}{
		{"operator", "3", operatorRole, http.StatusForbidden, "", ""},
		{"not a number", "10.0.0.3:9001", adminRole, http.StatusUnprocessableEntity, "id", "cluster status"},
		{"zero", "0", adminRole, http.StatusUnprocessableEntity, "id", ""},
		{"unknown", "42", adminRole, http.StatusNotFound, "", "no member 42"},
		{"self", "1", adminRole, http.StatusConflict, "", "stop this daemon"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.role, http.MethodDelete, members+tt.id, nil, admin.ReasonHeader, "x")
			expect(t, r, tt.status, tt.field)
			if !strings.Contains(string(r.Body), tt.detail) {
				t.Errorf("answer %s, want a detail with %q", r.Body, tt.detail)
			}
		})
	}
	if len(c.members) != 3 {
		t.Fatalf("refusals removed members: %v", c.members)
	}

	r := e.do(adminRole, http.MethodDelete, members+"3", nil, admin.ReasonHeader, "host retired")
	expect(t, r, http.StatusOK, "")
	var got admin.ClusterMember
	r.decode(t, &got)
	if d := cmp.Diff(admin.ClusterMember{ID: 3, Address: "10.0.0.3:9001", Role: "voter"}, got); d != "" {
		t.Errorf("removed member (-want +got):\n%s", d)
	}
	if _, ok := c.members[3]; ok || len(c.members) != 2 {
		t.Errorf("members after the removal: %v", c.members)
	}
	var audit struct{ Entries []lifecycle.AuditEntry }
	e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit?action=cluster.remove_member", nil).decode(t, &audit)
	if len(audit.Entries) != 1 {
		t.Fatalf("audit entries %+v, want the one removal", audit.Entries)
	}
	a := audit.Entries[0]
	if a.Reason != "host retired" || a.TargetKind != "cluster_member" || a.TargetID != "3" || a.PriorState != "voter" ||
		a.CorrelationIDs["address"] != "10.0.0.3:9001" {
		t.Errorf("audit entry %+v", a)
	}
}

// A bolt store has no cluster: the removal is refused, saying so.
func TestRemoveClusterMemberSingleStore(t *testing.T) {
	e := newEnv(t)
	r := e.do(adminRole, http.MethodDelete, members+"3", nil)
	expect(t, r, http.StatusConflict, "")
	if !strings.Contains(string(r.Body), "not clustered") {
		t.Errorf("answer %s, want it to say the store is not clustered", r.Body)
	}
}
