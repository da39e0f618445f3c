package admin

import (
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// maxRegionCode bounds a region code (as a site's).
const maxRegionCode = 256

// checkShape looks q's SKU up in the catalog (an unknown one is refused
// naming sku_id and the known ids) and checks the gpus_total and
// region_code that q and its nodes give: a GPU count must be the SKU's,
// a region code must be one a site could have. A batch names a node's
// fields nodes[i].
func (a *API) checkShape(op string, q answer.BatchRequest, batch bool) (lifecycle.SKU, error) {
	sku, err := a.skus.Lookup(op, "sku_id", q.SKUID)
	if err != nil {
		return sku, err
	}
	if err := checkGPUs(op, "", q.GPUsTotal, sku); err != nil {
		return sku, err
	}
	if err := checkRegion(op, "", q.RegionCode); err != nil {
		return sku, err
	}
	for i, n := range q.Nodes {
		p := ""
		if batch {
			p = fmt.Sprintf("nodes[%d].", i)
		}
		if err := checkGPUs(op, p, n.GPUsTotal, sku); err != nil {
			return sku, err
		}
		if err := checkRegion(op, p, n.RegionCode); err != nil {
			return sku, err
		}
	}
	return sku, nil
}

// checkGPUs refuses a given GPU count that is not the SKU's.
func checkGPUs(op, prefix string, got *int, sku lifecycle.SKU) error {
	if got != nil && *got != sku.GPUs {
		return lifecycle.Invalid(op, prefix+"gpus_total", "%sgpus_total %d does not match SKU %s, which has %d GPUs",
			prefix, *got, sku.ID, sku.GPUs)
	}
	return nil
}

// checkRegion validates a region override as a site's region code: not
// blank, at most 256 characters. Empty means none.
func checkRegion(op, prefix, code string) error {
	switch {
	case code == "":
		return nil
	case strings.TrimSpace(code) == "":
		return lifecycle.Invalid(op, prefix+"region_code", "%sregion_code must not be blank (leave it out for the site's)", prefix)
	case len(code) > maxRegionCode:
		return lifecycle.Invalid(op, prefix+"region_code", "%sregion_code is longer than %d characters", prefix, maxRegionCode)
	}
	return nil
}

// region is the region override of node n: its own, else the request's;
// empty leaves the site's.
func region(q answer.BatchRequest, n answer.OnboardNode) string {
	if n.RegionCode != "" {
		return n.RegionCode
	}
	return q.RegionCode
}
