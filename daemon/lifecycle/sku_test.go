package lifecycle

import (
	"fmt"
	"strings"
	"testing"
)

func TestNewCatalogNamesTheBadEntry(t *testing.T) {
	tests := []struct {
		name  string
		skus  []SKU
		field string
	}{
		{"empty", nil, "skus"},
		{"bad id", []SKU{{ID: "h100.80g.8gpu", GPUs: 8}, {ID: "h100 80g", GPUs: 8}}, "skus[1].id"},
		{"empty id", []SKU{{GPUs: 8}}, "skus[0].id"},
		{"id too long", []SKU{{ID: strings.Repeat("a", 65), GPUs: 8}}, "skus[0].id"},
		{"duplicate", []SKU{{ID: "a.1g.1gpu", GPUs: 1}, {ID: "b.1g.1gpu", GPUs: 1}, {ID: "a.1g.1gpu", GPUs: 2}}, "skus[2].id"},
		{"zero gpus", []SKU{{ID: "cpu.only", GPUs: 0}}, "skus[0].gpus"},
		{"negative gpus", []SKU{{ID: "x.1g.1gpu", GPUs: -8}}, "skus[0].gpus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewCatalog(tt.skus)
			if ErrorCode(err) != CodeInvalid || ErrorField(err) != tt.field {
				t.Errorf("NewCatalog = %v (field %q), want invalid naming %s", err, ErrorField(err), tt.field)
			}
		})
	}
	if _, err := NewCatalog(DefaultSKUs()); err != nil {
		t.Errorf("the default SKUs: %v", err)
	}
}

func TestCatalogLookup(t *testing.T) {
	c, err := NewCatalog([]SKU{{ID: "mi300x.192g.8gpu", GPUs: 8}, {ID: "h100.80g.4gpu", GPUs: 4}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Lookup("op", "sku_id", "h100.80g.4gpu")
	if err != nil || s.GPUs != 4 {
		t.Fatalf("Lookup = %+v, %v; want 4 GPUs", s, err)
	}
	for id, want := range map[string]string{
		"":               "sku_id is required",
		"a b":            "must be 1-64 letters",
		"h100.80g.8gpu":  "sku_id h100.80g.8gpu is not in the SKU catalog; known: mi300x.192g.8gpu, h100.80g.4gpu",
		"MI300X.192G.8G": "not in the SKU catalog",
	} {
		_, err := c.Lookup("op", "sku_id", id)
		if ErrorCode(err) != CodeInvalid || ErrorField(err) != "sku_id" || !strings.Contains(err.Error(), want) {
			t.Errorf("Lookup(%q) = %v (field %q), want invalid sku_id with %q", id, err, ErrorField(err), want)
		}
	}
}

// An unknown SKU's error lists at most 20 known ids.
func TestCatalogLookupListsBoundedIDs(t *testing.T) {
	var skus []SKU
	for i := range 25 {
		skus = append(skus, SKU{ID: fmt.Sprintf("gpu%02d.80g.8gpu", i), GPUs: 8})
	}
	c, err := NewCatalog(skus)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Lookup("op", "sku", "nope")
	msg := err.Error()
	if !strings.Contains(msg, "gpu19.80g.8gpu and 5 more") || strings.Contains(msg, "gpu20") {
		t.Errorf("unknown SKU message %q, want the first 20 ids and \"and 5 more\"", msg)
	}
	if ids := c.IDs(); len(ids) != 25 || ids[0] != "gpu00.80g.8gpu" {
		t.Errorf("IDs = %v", ids)
	}
}
