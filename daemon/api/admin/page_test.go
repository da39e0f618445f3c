package admin_test

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// pageOf is a list answer's next cursor.
type pageOf struct {
	NextCursor string `json:"next_cursor"`
}

// follow reads path page by page as a viewer and returns every item's id
// (an audit entry's seq) and the page count.
func (e *env) follow(path string) ([]string, int) {
	e.t.Helper()
	key, id := "nodes", "id"
	switch {
	case strings.Contains(path, "/onboardings"):
		key = "onboardings"
	case strings.Contains(path, "/audit"):
		key, id = "entries", "seq"
	}
	return e.followList(viewerRole, path, key, id)
}

// Every list route's pages hold each match once, in order, and the last
// page has no next_cursor.
func TestListPagesCoverEachItemOnce(t *testing.T) {
	e := newEnv(t)
	a, b := e.site("a"), e.site("b")
	var nodes, runs []string
	for i := range 7 {
		id := fmt.Sprintf("node-%02d", i)
		e.must(e.store.CreateNode(t.Context(), lifecycle.Node{ID: id, SiteID: a, Hostname: "h" + id, Status: lifecycle.NodeEnrolling}))
		nodes = append(nodes, id)
		rid := fmt.Sprintf("run-%02d", i)
		e.must(e.store.CreateRun(t.Context(), lifecycle.Run{ID: rid, Kind: lifecycle.RunOnboarding, SiteID: a, Hostname: "h" + id, Status: lifecycle.JobPending}))
		runs = append(runs, rid)
		_, err := e.store.AppendAudit(t.Context(), lifecycle.AuditEntry{Actor: "t", Action: "test.page", TargetKind: "node", TargetID: id})
		e.must(err)
	}
	e.must(e.store.CreateNode(t.Context(), lifecycle.Node{ID: "node-b", SiteID: b, Hostname: "hb", Status: lifecycle.NodeEnrolling}))
	got, pages := e.follow("/api/v1/admin/nodes?limit=3&site_id=" + a)
	if !slices.Equal(got, nodes) || pages != 3 {
		t.Errorf("node pages of 3: %v in %d pages, want %v in 3", got, pages, nodes)
	}
	all, _ := e.follow("/api/v1/admin/onboardings?limit=2&site_id=" + a)
	if slices.Sort(all); !slices.Equal(all, runs) {
		t.Errorf("onboarding pages of 2: %v, want %v", all, runs)
	}
	audit, pages := e.follow("/api/v1/admin/audit?limit=4&action=test.page")
	if len(audit) != 7 || pages != 2 || !slices.IsSortedFunc(audit, func(x, y string) int { return cmp.Compare(atoi(x), atoi(y)) }) {
		t.Errorf("audit pages of 4: %v in %d pages", audit, pages)
	}
	one, pages := e.follow("/api/v1/admin/nodes?site_id=" + b)
	if !slices.Equal(one, []string{"node-b"}) || pages != 1 {
		t.Errorf("default page: %v in %d pages", one, pages)
	}
}

// Bad limits and cursors are refused naming the parameter; a cursor made
// for another filter is refused.
func TestListPageBadInput(t *testing.T) {
	e := newEnv(t)
	a := e.site("a")
	for i := range 3 {
		id := fmt.Sprintf("node-%d", i)
		e.must(e.store.CreateNode(t.Context(), lifecycle.Node{ID: id, SiteID: a, Hostname: id, Status: lifecycle.NodeEnrolling}))
	}
	for _, path := range []string{"/api/v1/admin/nodes", "/api/v1/admin/onboardings", "/api/v1/admin/audit"} {
		for _, bad := range []string{"0", "1001", "x", "-1"} {
			expect(t, e.do(viewerRole, http.MethodGet, path+"?limit="+bad, nil), http.StatusUnprocessableEntity, "limit")
		}
		expect(t, e.do(viewerRole, http.MethodGet, path+"?cursor=not-a-cursor", nil), http.StatusUnprocessableEntity, "cursor")
	}
	var p pageOf
	e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes?limit=1", nil).decode(t, &p)
	if p.NextCursor == "" {
		t.Fatal("a full first page has no next_cursor")
	}
	c := url.QueryEscape(p.NextCursor)
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes?limit=1&status=active&cursor="+c, nil), http.StatusUnprocessableEntity, "cursor")
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/onboardings?cursor="+c, nil), http.StatusUnprocessableEntity, "cursor")
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes?limit=1&cursor="+c, nil), http.StatusOK, "")
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// The audit log newest first: pages of order=desc walk down the sequence
// numbers, each entry once; a cursor of one order is refused by the
// other; an unknown order is refused naming it.
func TestAuditNewestFirstPages(t *testing.T) {
	e := newEnv(t)
	for i := range 7 {
		_, err := e.store.AppendAudit(t.Context(), lifecycle.AuditEntry{Actor: "t", Action: "test.page", TargetKind: "node", TargetID: strconv.Itoa(i)})
		e.must(err)
	}
	got, pages := e.follow("/api/v1/admin/audit?limit=3&action=test.page&order=desc")
	desc := func(x, y string) int { return cmp.Compare(atoi(y), atoi(x)) }
	if len(got) != 7 || pages != 3 || !slices.IsSortedFunc(got, desc) || len(slices.Compact(slices.Clone(got))) != 7 {
		t.Errorf("newest-first pages of 3: %v in %d pages", got, pages)
	}
	var p pageOf
	e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit?limit=1&order=desc", nil).decode(t, &p)
	c := url.QueryEscape(p.NextCursor)
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit?limit=1&cursor="+c, nil), http.StatusUnprocessableEntity, "cursor")
	expect(t, e.do(viewerRole, http.MethodGet, "/api/v1/admin/audit?order=newest", nil), http.StatusUnprocessableEntity, "order")
}
