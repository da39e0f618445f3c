package admin

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// maxBatch bounds the nodes of one batch onboarding.
const maxBatch = 1000

var skuPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// checkSelectors validates the request-level selectors. The site's only
// profile is its implicit default one, named "default" or by the site id.
func checkSelectors(op, siteID, profileID, sku string) error {
	switch {
	case siteID == "":
		return lifecycle.Invalid(op, "site_id", "site_id is required")
	case len(siteID) > 64:
		return lifecycle.Invalid(op, "site_id", "site_id is not a site id")
	case profileID == "":
		return lifecycle.Invalid(op, "profile_id", "profile_id is required")
	case profileID != DefaultProfileID && profileID != siteID:
		return lifecycle.Invalid(op, "profile_id", "profile_id %.64q is unknown; a site has only its implicit default profile %q", profileID, DefaultProfileID)
	case sku == "":
		return lifecycle.Invalid(op, "sku_id", "sku_id is required")
	case !skuPattern.MatchString(sku):
		return lifecycle.Invalid(op, "sku_id", "sku_id %.64q must be 1-64 letters, digits, '.', '_' or '-'", sku)
	}
	return nil
}

// check validates one node; prefix names it in a batch ("nodes[3].").
func checkNode(op, prefix string, n answer.OnboardNode) error {
	if n.Hostname == "" {
		return lifecycle.Invalid(op, prefix+"hostname", "%shostname is required", prefix)
	}
	if !lifecycle.ValidHostname(n.Hostname) {
		return lifecycle.Invalid(op, prefix+"hostname", "%shostname %.64q is not a host name (one DNS label)", prefix, n.Hostname)
	}
	if n.IPMIIP == "" {
		return lifecycle.Invalid(op, prefix+"ipmi_ip", "%sipmi_ip is required", prefix)
	}
	if _, err := netip.ParseAddr(n.IPMIIP); err != nil {
		return lifecycle.Invalid(op, prefix+"ipmi_ip", "%sipmi_ip %.64q is not an IP address", prefix, n.IPMIIP)
	}
	return nil
}

// checkNodes validates a batch's nodes: each valid, no host name or BMC
// address given twice.
func checkNodes(op string, nodes []answer.OnboardNode) error {
	if len(nodes) == 0 || len(nodes) > maxBatch {
		return lifecycle.Invalid(op, "nodes", "nodes must hold 1-%d machines", maxBatch)
	}
	hosts, bmcs := map[string]int{}, map[string]int{}
	for i, n := range nodes {
		p := fmt.Sprintf("nodes[%d].", i)
		if err := checkNode(op, p, n); err != nil {
			return err
		}
		h, ip := strings.ToLower(n.Hostname), netip.MustParseAddr(n.IPMIIP).String()
		if j, dup := hosts[h]; dup {
			return lifecycle.Invalid(op, p+"hostname", "%shostname %s repeats nodes[%d]", p, h, j)
		}
		if j, dup := bmcs[ip]; dup {
			return lifecycle.Invalid(op, p+"ipmi_ip", "%sipmi_ip %s repeats nodes[%d]", p, ip, j)
		}
		hosts[h], bmcs[ip] = i, i
	}
	return nil
}
