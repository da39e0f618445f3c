package admin_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// followList reads path (with its query) page by page as role and returns
// the idField of every item under key, and the page count.
func (e *env) followList(role lifecycle.Role, path, key, idField string) ([]string, int) {
	e.t.Helper()
	var out []string
	for pages, cursor := 1, ""; ; pages++ {
		p := path
		if cursor != "" {
			p += "&cursor=" + url.QueryEscape(cursor)
		}
		r := e.do(role, http.MethodGet, p, nil)
		expect(e.t, r, http.StatusOK, "")
		var page map[string]json.RawMessage
		r.decode(e.t, &page)
		var items []map[string]any
		if err := json.Unmarshal(page[key], &items); err != nil {
			e.t.Fatalf("%s: %s: %v", p, key, err)
		}
		for _, it := range items {
			out = append(out, fmt.Sprint(it[idField]))
		}
		var next string
		if raw, ok := page["next_cursor"]; ok {
			e.must(json.Unmarshal(raw, &next))
		}
		if next == "" {
			return out, pages
		}
		cursor = next
	}
}

// pagedList is one list route under test and the role that may read it.
type pagedList struct {
	role         lifecycle.Role
	path         string // with its query, ending in ? or a filter
	key, idField string
	want         []string // every match in order
	otherFilter  string   // the same route with another filter
	wantPagesOf2 int
}

// seedLists fills every list route of pagedLists with a few items.
func (e *env) seedLists(t *testing.T) []pagedList {
	ctx := t.Context()
	var ids []string
	for _, n := range []string{"site-d", "site-b", "site-e", "site-a", "site-c"} {
		ids = append(ids, e.site(n))
	}
	bySiteName := []string{ids[3], ids[1], ids[4], ids[0], ids[2]}
	a := ids[0]
	var overrides, roce []string
	for _, h := range []string{"h3", "h1", "h5", "h2", "h4"} {
		var o lifecycle.PowerOverride
		e.do(adminRole, http.MethodPost, sitePath(a, "power-overrides"), map[string]any{"selector_type": "hostname", "selector_value": h}).decode(t, &o)
		overrides = append(overrides, h+" "+o.ID)
		var ro struct{ Items []lifecycle.RoCEAssignment }
		e.do(adminRole, http.MethodPost, sitePath(a, "roce-assignments"), roceItems([3]string{h, "eth0", "10.0.0.1/31"})).decode(t, &ro)
		roce = append(roce, h+" "+ro.Items[0].ID)
	}
	slices.Sort(overrides)
	slices.Sort(roce)
	var decoms, reimages, drift []string
	for i := range 7 {
		n := lifecycle.Node{ID: fmt.Sprintf("node-%02d", i), SiteID: a, Hostname: fmt.Sprintf("n%d", i), Status: lifecycle.NodeEnrolling}
		e.must(e.store.CreateNode(ctx, n))
		mode := []lifecycle.DecommissionMode{lifecycle.ModeSoftReset, lifecycle.ModeReimage}[i%2]
		id := fmt.Sprintf("decom-%02d", i)
		e.must(e.store.CreateRun(ctx, lifecycle.Run{ID: id, Kind: lifecycle.RunDecommission, Mode: mode, SiteID: a, NodeID: n.ID, Status: lifecycle.JobPending}))
		e.must(e.store.CreateRun(ctx, lifecycle.Run{ID: fmt.Sprintf("onb-%02d", i), Kind: lifecycle.RunOnboarding, SiteID: a, Hostname: n.Hostname, Status: lifecycle.JobPending}))
		decoms = append(decoms, id)
		if mode == lifecycle.ModeReimage {
			reimages = append(reimages, id)
		}
		_, err := e.store.UpdateNodeMaasState(ctx, n.ID, func(s *lifecycle.NodeMaasState) error {
			s.DriftDetected, s.DriftRule = i != 3, lifecycle.DriftReleased
			return nil
		})
		e.must(err)
		if i != 3 {
			drift = append(drift, n.ID)
		}
	}
	var tokens []string
	for _, k := range []string{"tok-z", "tok-m", "tok-0"} {
		e.must(e.store.CreateAdminToken(ctx, lifecycle.AdminToken{ID: k, Name: k, Role: lifecycle.RoleViewer, Hash: "hash-" + k}))
	}
	all, err := e.store.ListAdminTokens(ctx)
	e.must(err)
	for _, tk := range all {
		tokens = append(tokens, tk.ID)
	}
	slices.Sort(tokens)
	return []pagedList{
		{viewerRole, sites + "?include_deleted=false", "sites", "id", bySiteName, sites + "?include_deleted=true", 3},
		{viewerRole, sitePath(a, "power-overrides") + "?", "overrides", "selector_value id", overrides, sitePath(ids[1], "power-overrides") + "?", 3},
		{viewerRole, sitePath(a, "roce-assignments") + "?", "items", "hostname id", roce, sitePath(a, "roce-assignments") + "?hostname=h1", 3},
		{viewerRole, "/api/v1/admin/decommissions?site_id=" + a, "decommissions", "id", decoms, "/api/v1/admin/decommissions?mode=reimage", 4},
		{viewerRole, "/api/v1/admin/decommissions?mode=reimage", "decommissions", "id", reimages, "/api/v1/admin/decommissions?mode=soft_reset", 2},
		{viewerRole, "/api/v1/admin/reconciliation/drift?site_id=" + a, "drift", "node_id", drift, "/api/v1/admin/reconciliation/drift?", 3},
		{adminRole, "/api/v1/admin/tokens?", "tokens", "id", tokens, "/api/v1/admin/decommissions?", 4},
	}
}

// Every list route added to the paged ones walks each item once, in its
// order, in pages of the limit asked; the default page holds them all.
func TestMoreListPagesCoverEachItemOnce(t *testing.T) {
	e := newEnv(t)
	for _, l := range e.seedLists(t) {
		key := func(got []string) []string { return got }
		if f := strings.Fields(l.idField); len(f) == 2 {
			key = func([]string) []string { return e.pairs(l, f[0], f[1]) }
		}
		got, pages := e.followList(l.role, l.path+"&limit=2", l.key, l.idField)
		if got = key(got); !slices.Equal(got, l.want) || pages != l.wantPagesOf2 {
			t.Errorf("%s in pages of 2: %v in %d pages, want %v in %d", l.path, got, pages, l.want, l.wantPagesOf2)
		}
		if _, pages := e.followList(l.role, l.path, l.key, strings.Fields(l.idField)[0]); pages != 1 {
			t.Errorf("%s: the default page is one of %d", l.path, pages)
		}
	}
}

// pairs reads l whole in pages of 1 and returns "a b" of each item.
func (e *env) pairs(l pagedList, a, b string) []string {
	x, _ := e.followList(l.role, l.path+"&limit=1", l.key, a)
	y, _ := e.followList(l.role, l.path+"&limit=1", l.key, b)
	out := make([]string, len(x))
	for i := range x {
		out[i] = x[i] + " " + y[i]
	}
	return out
}

// Each of them refuses a bad limit or cursor naming the parameter, and a
// cursor made for another route or another filter.
func TestMoreListPagesBadInput(t *testing.T) {
	e := newEnv(t)
	lists := e.seedLists(t)
	var nodes pageOf
	e.do(viewerRole, http.MethodGet, "/api/v1/admin/nodes?limit=1", nil).decode(t, &nodes)
	for _, l := range lists {
		for _, bad := range []string{"0", "1001", "x", "-1", "2.5"} {
			expect(t, e.do(l.role, http.MethodGet, l.path+"&limit="+bad, nil), http.StatusUnprocessableEntity, "limit")
		}
		expect(t, e.do(l.role, http.MethodGet, l.path+"&cursor=not-a-cursor", nil), http.StatusUnprocessableEntity, "cursor")
		expect(t, e.do(l.role, http.MethodGet, l.path+"&cursor="+url.QueryEscape(nodes.NextCursor), nil), http.StatusUnprocessableEntity, "cursor")
		var page map[string]any
		e.do(l.role, http.MethodGet, l.path+"&limit=1", nil).decode(t, &page)
		c, _ := page["next_cursor"].(string)
		if c == "" {
			t.Fatalf("%s: a full first page has no next_cursor", l.path)
		}
		expect(t, e.do(l.role, http.MethodGet, l.otherFilter+"&cursor="+url.QueryEscape(c), nil), http.StatusUnprocessableEntity, "cursor")
		expect(t, e.do(l.role, http.MethodGet, l.path+"&limit=1&cursor="+url.QueryEscape(c), nil), http.StatusOK, "")
	}
}
