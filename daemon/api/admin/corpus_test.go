package admin_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// malformedBodies are bodies no route may answer with a 5xx, and that no
// route may act on.
func malformedBodies(site string) map[string]string {
	huge := strings.Repeat("x", 200<<10)
	out := map[string]string{
		"empty":               "",
		"array":               `[]`,
		"string":              `"x"`,
		"number":              `42`,
		"null":                `null`,
		"truncated":           `{"name": "dc1", "items": [`,
		"truncated string":    `{"name": "dc`,
		"two objects":         `{}{}`,
		"trailing garbage":    `{} x`,
		"unknown field":       `{"zzz_unknown": 1}`,
		"wrong types":         `{"name": 1, "site_id": 2, "items": "x", "nodes": {}, "reason": [], "maas_api_key": true, "selector_type": 3, "batch_max_parallel": "x", "status": 5, "role": 1, "hostname": 7}`,
		"nested wrong type":   `{"items": [1, 2], "nodes": ["x"], "power_credentials": "root"}`,
		"int overflow":        `{"pxe_vlan_vid": 1e99, "batch_max_parallel": 99999999999999999999}`,
		"huge string":         fmt.Sprintf(`{"name": %q, "reason": %q, "hostname": %q, "maas_api_key": %q, "selector_value": %q}`, huge, huge, huge, huge, huge),
		"over the body limit": `{"name": "` + strings.Repeat("y", 1<<20) + `"}`,
		"invalid utf8":        "{\"name\": \"\xff\xfe\"}",
		"deep nesting":        strings.Repeat("[", 100000),
		"bad cidr":            `{"items": [{"hostname": "h1", "interface": "eth0", "ipv4_cidr": "999.1.1.1/31"}]}`,
		"cidr without bits":   `{"items": [{"hostname": "h1", "interface": "eth0", "ipv4_cidr": "10.0.0.1"}]}`,
		"bad ip":              fmt.Sprintf(`{"site_id": %q, "profile_id": "default", "sku_id": "s", "hostname": "h1", "ipmi_ip": "10.0.0.999"}`, site),
		"ipv4 in ipv6 junk":   fmt.Sprintf(`{"site_id": %q, "profile_id": "default", "sku_id": "s", "hostname": "h1", "ipmi_ip": "::ffff:1.2.3"}`, site),
		"duplicate hostnames": fmt.Sprintf(`{"site_id": %q, "profile_id": "default", "sku_id": "s", "nodes": [{"hostname": "h1", "ipmi_ip": "10.0.0.1"}, {"hostname": "H1", "ipmi_ip": "10.0.0.2"}]}`, site),
		"bad dns":             `{"name": "x", "region_code": "r", "api_base_url": "http://m/MAAS", "pxe_iface": "e", "pxe_vlan_vid": 1, "node_pxe_iface": "e", "upstream_dns_servers": ["1.1.1.1/32"]}`,
		"dsn with password":   `{"name": "x", "region_code": "r", "api_base_url": "http://m/MAAS", "pxe_iface": "e", "pxe_vlan_vid": 1, "node_pxe_iface": "e", "notify": {"source": "dsn", "dsn": "postgres://u:pw@h/maasdb"}}`,
		"notify as string":    `{"notify": "dsn", "notify_db_password": 7}`,
		"bad selector ip":     `{"selector_type": "ipmi_ip", "selector_value": "10.0.0.1/24"}`,
		"status as object":    `{"status": {"active": true}}`,
		"empty reason":        `{"reason": ""}`,
		"bad policy":          `{"hardware_sync_interval": "-5m", "max_deploy_retry_attempts": -1}`,
	}
	return out
}

// dump is everything the store holds that a request could change.
func (e *env) dump() map[string]any {
	e.t.Helper()
	ctx := context.Background()
	d := map[string]any{}
	ss, err := e.store.ListSites(ctx)
	e.must(err)
	d["sites"] = ss
	for _, s := range ss {
		p, err := e.store.GetSitePolicy(ctx, s.ID)
		e.must(err)
		os, err := e.store.ListPowerOverrides(ctx, s.ID)
		e.must(err)
		ro, err := e.store.ListRoCEAssignments(ctx, s.ID, "")
		e.must(err)
		d["site "+s.ID] = []any{p, os, ro}
	}
	runs, err := e.store.ListRuns(ctx, lifecycle.RunFilter{})
	e.must(err)
	d["runs"] = runs
	for _, r := range runs {
		evs, err := e.store.ListRunEvents(ctx, r.ID, 0, 0)
		e.must(err)
		d["events "+r.ID] = evs
	}
	for k, f := range map[string]func() (any, error){
		"audit":  func() (any, error) { return e.store.ListAudit(ctx, lifecycle.AuditFilter{}) },
		"tokens": func() (any, error) { return e.store.ListAdminTokens(ctx) },
		"nodes":  func() (any, error) { return e.store.ListNodes(ctx, lifecycle.NodeFilter{}) },
	} {
		v, err := f()
		e.must(err)
		d[k] = v
	}
	return d
}

// TestMalformedCorpus sends every malformed body to every operation that
// takes one: none answers 5xx or 2xx, and the store and Vault are unchanged.
func TestMalformedCorpus(t *testing.T) {
	e := newEnv(t)
	site := e.site("a")
	failed := e.onboard(site, "bad-1", "10.0.9.1")
	e.waitRun(failed, lifecycle.JobFailedManualIntervention)
	before := e.dump()
	ids := strings.NewReplacer("{id}", site, "{oid}", "x", "{aid}", "y")
	for _, o := range documented(t) {
		if !o.HasBody {
			continue
		}
		path := ids.Replace(o.Path)
		if strings.HasPrefix(o.Path, onboardings+"/{id}") {
			path = strings.Replace(o.Path, "{id}", failed, 1)
		}
		for name, body := range malformedBodies(site) {
			r := e.do(adminRole, o.Method, path, body, "Idempotency-Key", "corpus")
			if r.Code >= 500 || r.Code < 400 {
				t.Errorf("%s %s with %s: %d %.300s", o.Method, o.Path, name, r.Code, r.Body)
			}
		}
	}
	if d := cmp.Diff(before, e.dump()); d != "" {
		t.Errorf("malformed requests changed the store (-before +after):\n%s", d)
	}
	if len(e.secrets.data) != 0 {
		t.Errorf("malformed requests wrote to Vault: %v", keys(e.secrets.data))
	}
}
