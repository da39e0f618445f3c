package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestValidateNamesTheSKUKey(t *testing.T) {
	tests := []struct {
		name    string
		skus    []lifecycle.SKU
		key     string
		message string
	}{
		{"empty catalog", []lifecycle.SKU{}, "skus", "config: skus: must list at least one SKU"},
		{"bad id", []lifecycle.SKU{{ID: "mi300x.192g.8gpu", GPUs: 8}, {ID: "h100/80g", GPUs: 8}}, "skus[1].id",
			`config: skus[1].id: "h100/80g" is not a SKU id`},
		{"missing id", []lifecycle.SKU{{GPUs: 8}}, "skus[0].id", `skus[0].id: "" is not a SKU id`},
		{"duplicate id", []lifecycle.SKU{{ID: "a.1g.1gpu", GPUs: 1}, {ID: "a.1g.1gpu", GPUs: 1}}, "skus[1].id",
			"config: skus[1].id: a.1g.1gpu is listed twice"},
		{"zero gpus", []lifecycle.SKU{{ID: "a.1g.1gpu"}}, "skus[0].gpus", "config: skus[0].gpus: 0 is not a positive GPU count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.SKUs = tt.skus
			err := c.Validate()
			if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != tt.key {
				t.Fatalf("Validate() = %v (field %q), want invalid naming %s", err, lifecycle.ErrorField(err), tt.key)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("Validate() = %q, want it to contain %q", err, tt.message)
			}
		})
	}
}

// A skus list in the file replaces the default catalog whole, and the
// catalog built from it knows exactly its ids.
func TestParseSKUsReplacesTheDefaults(t *testing.T) {
	c, err := Parse([]byte("skus:\n  - id: h100.80g.4gpu\n    gpus: 4\n  - id: gb200.186g.4gpu\n    gpus: 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []lifecycle.SKU{{ID: "h100.80g.4gpu", GPUs: 4}, {ID: "gb200.186g.4gpu", GPUs: 4}}
	if d := cmp.Diff(want, c.SKUs); d != "" {
		t.Errorf("skus (-want +got):\n%s", d)
	}
	cat, err := c.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.Lookup("op", "sku_id", "mi300x.192g.8gpu"); err == nil {
		t.Error("a default SKU is still known after the file replaced the list")
	}
	if s, err := cat.Lookup("op", "sku_id", "gb200.186g.4gpu"); err != nil || s.GPUs != 4 {
		t.Errorf("Lookup(gb200.186g.4gpu) = %+v, %v", s, err)
	}
}

func TestParseSKUUnknownKey(t *testing.T) {
	_, err := Parse([]byte("skus:\n  - id: h100.80g.8gpu\n    gpu: 8\n"))
	if lifecycle.ErrorField(err) != "gpu" || !strings.Contains(err.Error(), "unknown key") {
		t.Errorf("Parse() = %v (field %q), want the unknown key gpu named", err, lifecycle.ErrorField(err))
	}
}
