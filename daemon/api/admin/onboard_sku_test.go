package admin_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testSKUs is the env's catalog: the defaults and a 4-GPU shape, so that
// a filled-in count is seen to come from the catalog.
func testSKUs(t testing.TB) lifecycle.Catalog {
	c, err := lifecycle.NewCatalog(append(lifecycle.DefaultSKUs(), lifecycle.SKU{ID: "h100.80g.4gpu", GPUs: 4}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// An unknown SKU is refused naming sku_id and the known ids, before the
// site is even looked at, and nothing is written (seed 001 §4.6: SKU not
// found fails immediately as an input error).
func TestOnboardUnknownSKU(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	before := e.dump()
	single := onboardBody(id, "n1", "10.0.0.1")
	single["sku_id"] = "mi300x.192g.4gpu"
	batch := batchBody(id, [2]string{"n1", "10.0.0.1"})
	batch["sku_id"] = "h100.80g.2gpu"
	noSite := onboardBody("nope", "n1", "10.0.0.1")
	noSite["sku_id"] = "x.1g.1gpu"
	for i, c := range []struct {
		path string
		body map[string]any
	}{{onboardings, single}, {onboardings + "/batch", batch}, {onboardings, noSite}} {
		r := e.do(operatorRole, http.MethodPost, c.path, c.body, "Idempotency-Key", fmt.Sprint("k-", i))
		expect(t, r, http.StatusUnprocessableEntity, "sku_id")
		if !strings.Contains(string(r.Body), "not in the SKU catalog; known: mi300x.192g.8gpu, mi325x.256g.8gpu") ||
			!strings.Contains(string(r.Body), "h100.80g.4gpu") {
			t.Errorf("%s: the answer does not list the known SKUs: %s", c.path, r.Body)
		}
	}
	if d := cmp.Diff(before, e.dump()); d != "" {
		t.Errorf("refused onboardings changed the store (-before +after):\n%s", d)
	}
}

// A given gpus_total must be the SKU's; a region override must be a
// region code. Each refusal names the field and writes nothing.
func TestOnboardGPUsAndRegionValidation(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	with := func(b map[string]any, kv ...any) map[string]any {
		for i := 0; i < len(kv); i += 2 {
			b[kv[i].(string)] = kv[i+1]
		}
		return b
	}
	two := func(second map[string]any) map[string]any {
		b := batchBody(id, [2]string{"n1", "10.0.0.1"})
		b["nodes"] = []map[string]any{{"hostname": "n1", "ipmi_ip": "10.0.0.1"}, second}
		return b
	}
	tests := []struct {
		name, path, fld, msg string
		body                 map[string]any
	}{
		{"single mismatch", "", "gpus_total", "gpus_total 4 does not match SKU mi300x.192g.8gpu, which has 8 GPUs",
			with(onboardBody(id, "n1", "10.0.0.1"), "gpus_total", 4)},
		{"single zero", "", "gpus_total", "gpus_total 0 does not match", with(onboardBody(id, "n1", "10.0.0.1"), "gpus_total", 0)},
		{"catalog's own count", "", "gpus_total", "which has 4 GPUs",
			with(onboardBody(id, "n1", "10.0.0.1"), "sku_id", "h100.80g.4gpu", "gpus_total", 8)},
		{"single blank region", "", "region_code", "must not be blank", with(onboardBody(id, "n1", "10.0.0.1"), "region_code", "  ")},
		{"single long region", "", "region_code", "longer than 256", with(onboardBody(id, "n1", "10.0.0.1"), "region_code", strings.Repeat("r", 257))},
		{"batch mismatch", "/batch", "gpus_total", "gpus_total 16", with(batchBody(id, [2]string{"n1", "10.0.0.1"}), "gpus_total", 16)},
		{"batch blank region", "/batch", "region_code", "blank", with(batchBody(id, [2]string{"n1", "10.0.0.1"}), "region_code", " ")},
		{"node mismatch", "/batch", "nodes[1].gpus_total", "nodes[1].gpus_total 4",
			two(map[string]any{"hostname": "n2", "ipmi_ip": "10.0.0.2", "gpus_total": 4})},
		{"node blank region", "/batch", "nodes[1].region_code", "nodes[1].region_code must not be blank",
			two(map[string]any{"hostname": "n2", "ipmi_ip": "10.0.0.2", "region_code": "\t"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(operatorRole, http.MethodPost, onboardings+tt.path, tt.body)
			expect(t, r, http.StatusUnprocessableEntity, tt.fld)
			if !strings.Contains(string(r.Body), tt.msg) {
				t.Errorf("answer %s, want %q", r.Body, tt.msg)
			}
		})
	}
	e.assertNoRuns()
}

// The run takes the SKU's GPU count from the catalog (given or not) and
// the region override: the node's own, else the batch's, else none (the
// site's at node creation).
func TestOnboardFillsGPUsAndRegion(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	single := onboardBody(id, "s1", "10.0.1.1")
	single["sku_id"], single["region_code"] = "h100.80g.4gpu", "dc1-east"
	r := e.do(operatorRole, http.MethodPost, onboardings, single)
	expect(t, r, http.StatusCreated, "")
	var one struct {
		OnboardingID string `json:"onboarding_id"`
	}
	r.decode(t, &one)
	batch := batchBody(id)
	batch["region_code"], batch["gpus_total"] = "dc1-west", 8
	batch["nodes"] = []map[string]any{{"hostname": "b1", "ipmi_ip": "10.0.1.2"},
		{"hostname": "b2", "ipmi_ip": "10.0.1.3", "region_code": "dc1-north", "gpus_total": 8}}
	r = e.do(operatorRole, http.MethodPost, onboardings+"/batch", batch)
	expect(t, r, http.StatusCreated, "")
	var many struct {
		Onboardings []struct {
			OnboardingID string `json:"onboarding_id"`
		}
	}
	r.decode(t, &many)
	plain := e.onboard(id, "p1", "10.0.1.4")
	got := map[string][2]any{}
	for _, run := range []string{one.OnboardingID, many.Onboardings[0].OnboardingID, many.Onboardings[1].OnboardingID, plain} {
		stored, err := e.store.GetRun(t.Context(), run)
		e.must(err)
		got[stored.Hostname] = [2]any{stored.GPUsTotal, stored.RegionCode}
	}
	want := map[string][2]any{"s1": {4, "dc1-east"}, "b1": {8, "dc1-west"}, "b2": {8, "dc1-north"}, "p1": {8, ""}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("runs' gpus_total and region_code (-want +got):\n%s", d)
	}
}

// A retry under the same Idempotency-Key with another region is a
// different request (409); with the catalog's count given explicitly it
// is the same one.
func TestIdempotencyKeyCoversRegion(t *testing.T) {
	e := newEnv(t)
	id := e.site("a")
	send := func(kv ...any) resp {
		b := onboardBody(id, "n1", "10.0.0.1")
		for i := 0; i < len(kv); i += 2 {
			b[kv[i].(string)] = kv[i+1]
		}
		return e.do(operatorRole, http.MethodPost, onboardings, b, "Idempotency-Key", "k-r")
	}
	expect(t, send("region_code", "dc1-east"), http.StatusCreated, "")
	expect(t, send("region_code", "dc1-east", "gpus_total", 8), http.StatusOK, "")
	expect(t, send("region_code", "dc1-west"), http.StatusConflict, "")
	expect(t, send(), http.StatusConflict, "")
}
