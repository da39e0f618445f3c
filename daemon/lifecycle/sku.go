package lifecycle

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// SKU is one machine shape an onboarding may name (seed 001 §4.1 sku_id):
// its id and its GPU count, which becomes the node's gpus_total (§8.1).
type SKU struct {
	ID   string `json:"id" yaml:"id"`
	GPUs int    `json:"gpus" yaml:"gpus"`
}

// skuID is the form of a SKU id: model.memory.count, e.g. mi300x.192g.8gpu,
// though only the characters are checked.
var skuID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidSKUID reports whether id has the form of a SKU id: 1-64 letters,
// digits, '.', '_' or '-', starting with a letter or digit.
func ValidSKUID(id string) bool { return skuID.MatchString(id) }

// maxListedSKUs bounds the known ids an unknown-SKU error lists.
const maxListedSKUs = 20

// DefaultSKUs is the catalog used unless the configuration names its own:
// the common 8-GPU server shapes.
func DefaultSKUs() []SKU {
	return []SKU{
		{ID: "mi300x.192g.8gpu", GPUs: 8},
		{ID: "mi325x.256g.8gpu", GPUs: 8},
		{ID: "h100.80g.8gpu", GPUs: 8},
		{ID: "h200.141g.8gpu", GPUs: 8},
		{ID: "b200.180g.8gpu", GPUs: 8},
		{ID: "a100.80g.8gpu", GPUs: 8},
		{ID: "l40s.48g.8gpu", GPUs: 8},
	}
}

// Catalog is the known SKUs by id (build it with NewCatalog). The zero
// Catalog knows none.
type Catalog struct {
	byID map[string]SKU
	ids  []string // in the order given
}

// NewCatalog checks skus and returns them as a catalog: at least one, ids
// of the SKU form and unique, a positive GPU count. An error is invalid
// and its Field names the entry, e.g. "skus[2].gpus".
func NewCatalog(skus []SKU) (Catalog, error) {
	const op = "lifecycle.NewCatalog"
	if len(skus) == 0 {
		return Catalog{}, Invalid(op, "skus", "must list at least one SKU (an onboarding names one)")
	}
	c := Catalog{byID: make(map[string]SKU, len(skus)), ids: make([]string, 0, len(skus))}
	for i, s := range skus {
		key := fmt.Sprintf("skus[%d]", i)
		if !ValidSKUID(s.ID) {
			return Catalog{}, Invalid(op, key+".id", "%.80q is not a SKU id (1-64 letters, digits, '.', '_' or '-')", s.ID)
		}
		if _, dup := c.byID[s.ID]; dup {
			return Catalog{}, Invalid(op, key+".id", "%s is listed twice", s.ID)
		}
		if s.GPUs <= 0 {
			return Catalog{}, Invalid(op, key+".gpus", "%d is not a positive GPU count (SKU %s)", s.GPUs, s.ID)
		}
		c.byID[s.ID] = s
		c.ids = append(c.ids, s.ID)
	}
	return c, nil
}

// IDs returns the catalog's SKU ids in the order configured.
func (c Catalog) IDs() []string { return slices.Clone(c.ids) }

// Lookup returns the SKU id names. It is the one check of a SKU an API
// request gives: a missing, malformed or unknown id is an invalid Error
// under op whose Field is field and whose message lists the known ids
// (at most 20 of them).
func (c Catalog) Lookup(op, field, id string) (SKU, error) {
	if id == "" {
		return SKU{}, Invalid(op, field, "%s is required", field)
	}
	if !ValidSKUID(id) {
		return SKU{}, Invalid(op, field, "%s %.64q must be 1-64 letters, digits, '.', '_' or '-'", field, id)
	}
	s, ok := c.byID[id]
	if !ok {
		return SKU{}, Invalid(op, field, "%s %s is not in the SKU catalog; known: %s", field, id, c.listed())
	}
	return s, nil
}

// listed is the known ids for an error message, bounded.
func (c Catalog) listed() string {
	if len(c.ids) == 0 {
		return "none"
	}
	if len(c.ids) <= maxListedSKUs {
		return strings.Join(c.ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(c.ids[:maxListedSKUs], ", "), len(c.ids)-maxListedSKUs)
}
