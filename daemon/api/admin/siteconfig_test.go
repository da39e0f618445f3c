package admin_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestPolicy(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	var p map[string]any
	r := e.do(viewerRole, http.MethodGet, sitePath(id, "policy"), nil)
	expect(t, r, http.StatusOK, "")
	r.decode(t, &p)
	if p["profile_id"] != "default" || p["batch_max_parallel"] != 10.0 || p["strict_pxe_preflight"] != true {
		t.Errorf("default policy = %v", p)
	}
	r = e.do(adminRole, http.MethodPatch, sitePath(id, "policy"), map[string]any{"batch_max_parallel": 4, "auto_claim_single_new_machine": true})
	expect(t, r, http.StatusOK, "")
	var got lifecycle.SitePolicy
	r.decode(t, &got)
	want := lifecycle.DefaultSitePolicy(id)
	want.BatchMaxParallel, want.AutoClaimSingleNewMachine = 4, true
	if d := cmp.Diff(want, got, cmpTimes); d != "" {
		t.Errorf("patched policy (-want +got):\n%s", d)
	}
	gone := e.site("gone")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(gone), nil), 204, "")
	tests := []struct {
		name string
		site string
		body any
		code int
		fld  string
	}{
		{"out of range", id, map[string]any{"batch_max_parallel": 0}, 422, "batch_max_parallel"},
		{"bad interval", id, map[string]any{"hardware_sync_interval": "soon"}, 422, "hardware_sync_interval"},
		{"ttl below deploy timeout", id, map[string]any{"enrollment_token_ttl_seconds": 600}, 422, "enrollment_token_ttl_seconds"},
		{"site_id changed", id, map[string]any{"site_id": "other"}, 422, "site_id"},
		{"wrong type", id, map[string]any{"require_hw_sync": "yes"}, 400, "require_hw_sync"},
		{"unknown member", id, map[string]any{"turbo": true}, 400, "turbo"},
		{"not found", "nope", map[string]any{"batch_max_parallel": 3}, 404, ""},
		{"deleted site", gone, map[string]any{"batch_max_parallel": 3}, 409, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, e.do(adminRole, http.MethodPatch, sitePath(tt.site, "policy"), tt.body), tt.code, tt.fld)
		})
	}
	expect(t, e.do(viewerRole, http.MethodGet, sitePath("nope", "policy"), nil), 404, "")
}

func TestPowerOverrides(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	body := map[string]any{"selector_type": "pxe_mac", "selector_value": "AA:BB:CC:DD:EE:FF"}
	r := e.do(adminRole, http.MethodPost, sitePath(id, "power-overrides"), body)
	expect(t, r, http.StatusCreated, "")
	var o lifecycle.PowerOverride
	r.decode(t, &o)
	if o.SelectorValue != "aa:bb:cc:dd:ee:ff" || o.VaultPath != "kv/maas-sites/"+id+"/power/overrides/"+o.ID || o.Status != "active" {
		t.Errorf("override = %+v", o)
	}
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "power-overrides"), body), http.StatusConflict, "")
	tests := []struct {
		name string
		body map[string]any
		fld  string
	}{
		{"type missing", map[string]any{"selector_value": "h1"}, "selector_type"},
		{"value missing", map[string]any{"selector_type": "hostname"}, "selector_value"},
		{"bad type", map[string]any{"selector_type": "serial", "selector_value": "x"}, "selector_type"},
		{"bad ip", map[string]any{"selector_type": "ipmi_ip", "selector_value": "10.0.0.300"}, "selector_value"},
		{"bad mac", map[string]any{"selector_type": "pxe_mac", "selector_value": "aa:bb"}, "selector_value"},
		{"bad path", map[string]any{"selector_type": "hostname", "selector_value": "h1", "vault_path": "secret/x"}, "vault_path"},
		{"bad status", map[string]any{"selector_type": "hostname", "selector_value": "h1", "status": "on"}, "status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "power-overrides"), tt.body), 422, tt.fld)
		})
	}
	var list struct{ Overrides []lifecycle.PowerOverride }
	e.do(viewerRole, http.MethodGet, sitePath(id, "power-overrides"), nil).decode(t, &list)
	if len(list.Overrides) != 1 || list.Overrides[0].ID != o.ID {
		t.Errorf("list = %+v", list)
	}
	expect(t, e.do(viewerRole, http.MethodGet, sitePath("nope", "power-overrides"), nil), 404, "")
	expect(t, e.do(adminRole, http.MethodPost, sitePath("nope", "power-overrides"), body), 404, "")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(id, "power-overrides", o.ID), nil), 204, "")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(id, "power-overrides", o.ID), nil), 404, "")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(id), nil), 204, "")
	expect(t, e.do(adminRole, http.MethodPost, sitePath(id, "power-overrides"), body), 409, "")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(id, "power-overrides", "x"), nil), 409, "")
}

func roceItems(items ...[3]string) map[string]any {
	var out []map[string]string
	for _, it := range items {
		out = append(out, map[string]string{"hostname": it[0], "interface": it[1], "ipv4_cidr": it[2]})
	}
	return map[string]any{"items": out}
}

func TestRoCE(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	path := sitePath(id, "roce-assignments")
	r := e.do(adminRole, http.MethodPost, path, roceItems(
		[3]string{"c07u31", "enp28s0np0", "172.30.9.61/31"}, [3]string{"C07U31", "enp29s0np0", "172.29.1.219/31"}))
	expect(t, r, http.StatusOK, "")
	expect(t, e.do(adminRole, http.MethodPost, path, roceItems([3]string{"c07u31", "enp28s0np0", "172.30.9.63/31"})), 200, "")
	var list struct{ Items []lifecycle.RoCEAssignment }
	e.do(viewerRole, http.MethodGet, path+"?hostname=C07U31", nil).decode(t, &list)
	var got []string
	for _, a := range list.Items {
		got = append(got, a.Hostname+" "+a.Interface+" "+a.IPv4CIDR)
	}
	if d := cmp.Diff([]string{"c07u31 enp28s0np0 172.30.9.63/31", "c07u31 enp29s0np0 172.29.1.219/31"}, got); d != "" {
		t.Errorf("assignments (-want +got):\n%s", d)
	}
	tests := []struct {
		name string
		body any
		fld  string
	}{
		{"empty", map[string]any{"items": []any{}}, "items"},
		{"items missing", map[string]any{}, "items"},
		{"bad cidr", roceItems([3]string{"h1", "eth0", "172.30.9.61"}), "items[0].ipv4_cidr"},
		{"ipv6 cidr", roceItems([3]string{"h1", "eth0", "fd00::1/127"}), "items[0].ipv4_cidr"},
		{"too wide", roceItems([3]string{"h1", "eth0", "10.0.0.0/8"}), "items[0].ipv4_cidr"},
		{"bad hostname", roceItems([3]string{"h1", "eth0", "10.0.0.1/31"}, [3]string{"-x", "eth0", "10.0.0.1/31"}), "items[1].hostname"},
		{"interface missing", roceItems([3]string{"h1", "", "10.0.0.1/31"}), "items[0].interface"},
		{"duplicate pair", roceItems([3]string{"h1", "eth0", "10.0.0.1/31"}, [3]string{"H1", "eth0", "10.0.0.3/31"}), "items[1].interface"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, e.do(adminRole, http.MethodPost, path, tt.body), 422, tt.fld)
		})
	}
	ok := roceItems([3]string{"h1", "eth0", "10.0.0.1/31"})
	expect(t, e.do(adminRole, http.MethodPost, sitePath("nope", "roce-assignments"), ok), 404, "")
	expect(t, e.do(viewerRole, http.MethodGet, sitePath("nope", "roce-assignments"), nil), 404, "")
	expect(t, e.do(adminRole, http.MethodDelete, path+"/"+list.Items[0].ID, nil), 204, "")
	expect(t, e.do(adminRole, http.MethodDelete, path+"/"+list.Items[0].ID, nil), 404, "")
	expect(t, e.do(adminRole, http.MethodDelete, sitePath(id), nil), 204, "")
	expect(t, e.do(adminRole, http.MethodPost, path, ok), 409, "")
	r = e.do(adminRole, http.MethodDelete, path+"/"+list.Items[1].ID, nil)
	expect(t, r, 409, "")
	if !strings.Contains(string(r.Body), "deleted") {
		t.Errorf("conflict does not name the state: %s", r.Body)
	}
}
