package lifecycle

import (
	"net/netip"
	"strings"
	"time"
)

// SelectorType says what a power credential override matches on.
type SelectorType string

// Selector types, in the order credential selection tries them
// (seed 001 §3.2.1): pxe_mac, then ipmi_ip, then hostname.
const (
	SelectPXEMac   SelectorType = "pxe_mac"
	SelectIPMIIP   SelectorType = "ipmi_ip"
	SelectHostname SelectorType = "hostname"
)

// SelectorOrder is the precedence of override selectors.
var SelectorOrder = []SelectorType{SelectPXEMac, SelectIPMIIP, SelectHostname}

// PowerOverride points one machine's BMC credentials at their own Vault
// path instead of the site default.
type PowerOverride struct {
	ID            string       `json:"id"`
	SiteID        string       `json:"site_id"`
	SelectorType  SelectorType `json:"selector_type"`
	SelectorValue string       `json:"selector_value"`
	VaultPath     string       `json:"vault_path"`
	Status        string       `json:"status"` // active or inactive
	CreatedAt     time.Time    `json:"created_at"`
	UpdatedAt     time.Time    `json:"updated_at"`
}

// Normalize lower-cases MACs and hostnames so matching is exact.
func (o PowerOverride) Normalize() PowerOverride {
	o.SelectorValue = strings.TrimSpace(o.SelectorValue)
	if o.SelectorType == SelectPXEMac || o.SelectorType == SelectHostname {
		o.SelectorValue = strings.ToLower(o.SelectorValue)
	}
	if o.Status == "" {
		o.Status = "active"
	}
	return o
}

// Validate checks an override, naming the bad field.
func (o PowerOverride) Validate() error {
	const op = "lifecycle.PowerOverride"
	switch o.SelectorType {
	case SelectPXEMac:
		if !validMAC(o.SelectorValue) {
			return Invalid(op, "selector_value", "%q is not a MAC address", o.SelectorValue)
		}
	case SelectIPMIIP:
		if _, err := netip.ParseAddr(o.SelectorValue); err != nil {
			return Invalid(op, "selector_value", "%q is not an IP address", o.SelectorValue)
		}
	case SelectHostname:
		if !ValidHostname(o.SelectorValue) {
			return Invalid(op, "selector_value", "%q is not a hostname", o.SelectorValue)
		}
	default:
		return Invalid(op, "selector_type", "selector_type %q is not one of pxe_mac, ipmi_ip, hostname", o.SelectorType)
	}
	if !strings.HasPrefix(o.VaultPath, "kv/") || strings.Contains(o.VaultPath, "..") {
		return Invalid(op, "vault_path", "vault_path must be a KV path such as kv/maas-sites/<site>/power/overrides/<id>")
	}
	if o.Status != "active" && o.Status != "inactive" {
		return Invalid(op, "status", "status %q is not active or inactive", o.Status)
	}
	return nil
}

func validMAC(s string) bool {
	parts := strings.Split(s, ":")
	if len(parts) != 6 {
		return false
	}
	for _, p := range parts {
		if len(p) != 2 || strings.Trim(p, "0123456789abcdef") != "" {
			return false
		}
	}
	return true
}

// ValidHostname reports whether s is an RFC 1123 host label (MAAS hostnames
// are single labels; the domain is separate).
func ValidHostname(s string) bool {
	if len(s) == 0 || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	return strings.Trim(strings.ToLower(s), "abcdefghijklmnopqrstuvwxyz0123456789-") == ""
}
