package lifecycle

import (
	"fmt"
	"strings"
)

// SKUGPU is the GPU a SKU id names: its model (the id up to the first
// '.', as in mi300x.192g.8gpu) and the vendor of that model ("amd" for
// MI models, "nvidia" for the A, B, GB, GH, H and L families); vendor ""
// for a model this table does not know, whose vendor is not checked.
func SKUGPU(id string) (vendor, model string) {
	model, _, _ = strings.Cut(strings.ToLower(id), ".")
	switch {
	case strings.HasPrefix(model, "mi"):
		return "amd", model
	case len(model) > 1 && strings.ContainsRune("abhl", rune(model[0])) && model[1] >= '0' && model[1] <= '9',
		strings.HasPrefix(model, "gb"), strings.HasPrefix(model, "gh"), strings.HasPrefix(model, "rtx"):
		return "nvidia", model
	}
	return "", model
}

// CheckSKU compares the GPUs of b with what the node's SKU names: count
// (gpus, the node's gpus_total from the SKU catalog; unchecked when 0),
// vendor and model (the reported model name
// contains the SKU's model, case-insensitively: "NVIDIA H100 80GB HBM3"
// for h100, "AMD Instinct MI300X" for mi300x). The error is invalid and
// says what the SKU wants and what the host has.
func CheckSKU(sku string, gpus int, b BOM) error {
	vendor, model := SKUGPU(sku)
	var bad []string
	if gpus > 0 && len(b.GPUs) != gpus {
		bad = append(bad, fmt.Sprintf("%d GPUs where the SKU has %d", len(b.GPUs), gpus))
	}
	for _, g := range b.GPUs {
		if vendor != "" && !strings.EqualFold(g.Vendor, vendor) {
			bad = append(bad, fmt.Sprintf("GPU %s is %s %s, not %s", g.UUID, g.Vendor, g.Model, vendor))
			continue
		}
		if !strings.Contains(strings.ToLower(g.Model), model) {
			bad = append(bad, fmt.Sprintf("GPU %s is a %q, not a %s", g.UUID, g.Model, model))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	if len(bad) > 3 {
		bad = append(bad[:3], fmt.Sprintf("and %d more", len(bad)-3))
	}
	return Invalid("lifecycle.CheckSKU", "sku", "the hardware does not match SKU %s: %s", sku, strings.Join(bad, "; "))
}
