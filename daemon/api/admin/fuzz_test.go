package admin_test

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// fuzzSeeds are real request bodies, one or more per operation that takes
// a body: $SITE stands for the env's site id.
var fuzzSeeds = map[string][]string{
	"POST /api/v1/admin/maas-sites":                                  {`{"name":"dc9","region_code":"dc9","api_base_url":"http://10.0.0.1:5240/MAAS","pxe_iface":"ens19","pxe_vlan_vid":46,"node_pxe_iface":"eno8303","upstream_dns_servers":["1.1.1.1"]}`},
	"PATCH /api/v1/admin/maas-sites/{id}":                            {`{"region_code":"dc2","status":"disabled"}`, `{"notify":{"source":"dsn","dsn":"postgres://maas@db/maasdb"}}`},
	"POST /api/v1/admin/maas-sites/{id}/credentials":                 {`{"maas_api_key":"a:b:c","power_credentials":{"username":"root","password":"pw"},"webhook_secret":"0123456789abcdef0123"}`},
	"PATCH /api/v1/admin/maas-sites/{id}/policy":                     {`{"batch_max_parallel":4,"hardware_sync_interval":"15m","enable_phase2_roce":true}`},
	"POST /api/v1/admin/maas-sites/{id}/power-overrides":             {`{"selector_type":"ipmi_ip","selector_value":"10.0.0.7","vault_path":"secret/bmc/x"}`, `{"selector_type":"hostname","selector_value":"gpu-01"}`},
	"POST /api/v1/admin/maas-sites/{id}/roce-assignments":            {`{"items":[{"hostname":"h1","interface":"eth0","ipv4_cidr":"10.1.0.1/31"}]}`},
	"POST /api/v1/admin/nodes":                                       {`{"site_id":"$SITE","hostname":"m09","sku":"mi300x.192g.8gpu","reason":"pre-installed host"}`},
	"POST /api/v1/admin/nodes/{id}/activate":                         {`{"reason":"machine redeployed and checked"}`},
	"POST /api/v1/admin/nodes/{id}/bootstrap":                        {`{"reason":"re-issue","ticket_ttl_seconds":600}`},
	"POST /api/v1/admin/nodes/{id}/decommission":                     {`{"mode":"release","erase":true,"reason":"retire"}`},
	"POST /api/v1/admin/onboardings":                                 {`{"site_id":"$SITE","profile_id":"default","sku_id":"mi300x.192g.8gpu","hostname":"gpu-77","ipmi_ip":"10.0.7.7"}`},
	"POST /api/v1/admin/onboardings/batch":                           {`{"site_id":"$SITE","profile_id":"default","sku_id":"h100.80g.4gpu","gpus_total":4,"nodes":[{"hostname":"b1","ipmi_ip":"10.0.8.1"},{"hostname":"b2","ipmi_ip":"10.0.8.2","region_code":"r2"}]}`},
	"POST /api/v1/admin/onboardings/{id}/retry":                      {`{"reason":"disk replaced"}`},
	"POST /api/v1/admin/decommissions/{id}/cancel":                   {`{"reason":"wrong machine"}`},
	"POST /api/v1/admin/reconciliation/run":                          {`{"site_id":"$SITE"}`},
	"POST /api/v1/admin/tokens":                                      {`{"name":"ci","role":"viewer"}`},
	"POST /api/v1/admin/onboardings/{id}/mark-manual-intervention":   {`{"reason":"hands on"}`},
	"POST /api/v1/admin/decommissions/{id}/mark-manual-intervention": {`{"reason":"hands on"}`},
}

// FuzzAdminRequest sends an arbitrary body to an operation of the admin
// API picked by route ("METHOD path" as documented, else any by hash): the
// answer is never a 5xx and always one docs/openapi.json describes; an
// error is problem+json with a code and a detail, and a 422 names its
// field; a refused request changes neither the store nor Vault.
func FuzzAdminRequest(f *testing.F) {
	e := newEnv(f)
	site := e.site("fz")
	failed := e.onboard(site, "bad-1", "10.0.9.1")
	e.waitRun(failed, lifecycle.JobFailedManualIntervention)
	var ops []operation
	for _, o := range documented(f) {
		if o.HasBody && !strings.HasPrefix(o.Path, "/api/v1/webhooks/") {
			ops = append(ops, o)
		}
	}
	for _, o := range ops {
		for _, b := range fuzzSeeds[o.Method+" "+o.Path] {
			f.Add(o.Method+" "+o.Path, []byte(b))
		}
		for _, b := range malformedBodies("$SITE") {
			if len(b) < 4<<10 {
				f.Add(o.Method+" "+o.Path, []byte(b))
			}
		}
	}
	before := e.settled()
	f.Fuzz(func(t *testing.T, route string, body []byte) {
		e.t = t
		o := pick(ops, route)
		path := strings.NewReplacer("{id}", site, "{oid}", "x", "{aid}", "y").Replace(o.Path)
		if strings.HasPrefix(o.Path, onboardings+"/{id}") || strings.HasPrefix(o.Path, "/api/v1/admin/decommissions/{id}") {
			path = strings.Replace(o.Path, "{id}", failed, 1)
		}
		vault := e.secrets.snapshot()
		r := e.do(adminRole, o.Method, path, strings.ReplaceAll(string(body), "$SITE", site), "Idempotency-Key", "fuzz-"+route)
		if r.Code >= 500 {
			t.Fatalf("%s %s: %d %.300s", o.Method, path, r.Code, r.Body)
		}
		if r.Code < 400 {
			before = e.settled()
			return
		}
		checkProblem(t, r)
		if d := cmp.Diff(before, e.dump()); d != "" {
			t.Fatalf("%s %s refused with %d changed the store (-before +after):\n%s", o.Method, path, r.Code, d)
		}
		if !reflect.DeepEqual(vault, e.secrets.snapshot()) {
			t.Fatalf("%s %s refused with %d wrote to Vault", o.Method, path, r.Code)
		}
	})
}

// pick returns the operation named by route, or one chosen by its hash.
func pick(ops []operation, route string) operation {
	for _, o := range ops {
		if o.Method+" "+o.Path == route {
			return o
		}
	}
	h := fnv.New32a()
	h.Write([]byte(route))
	return ops[int(h.Sum32()%uint32(len(ops)))]
}

func checkProblem(t *testing.T, r resp) {
	t.Helper()
	var p struct{ Code, Detail, Field string }
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("error %d has Content-Type %q", r.Code, ct)
	}
	if err := json.Unmarshal(r.Body, &p); err != nil || p.Code == "" || p.Detail == "" {
		t.Fatalf("error %d is not a problem with a code and a detail: %v %s", r.Code, err, r.Body)
	}
	if r.Code == http.StatusUnprocessableEntity && p.Field == "" {
		t.Fatalf("422 names no field: %s", r.Body)
	}
}

// settled is the store's dump once the runs an accepted request started
// have stopped changing it.
func (e *env) settled() map[string]any {
	e.t.Helper()
	d := e.dump()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		next := e.dump()
		if cmp.Equal(d, next) {
			return next
		}
		d = next
	}
	e.t.Fatalf("the store did not settle")
	return nil
}

// snapshot copies what the Vault fake holds.
func (f *fakeSecrets) snapshot() map[string]map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]map[string]string{}
	for k, v := range f.data {
		c := map[string]string{}
		for kk, vv := range v {
			c[kk] = vv
		}
		out[k] = c
	}
	return out
}
