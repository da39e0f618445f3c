package lifecycle

import (
	"bytes"
	"net"
	"net/netip"
	"strings"
)

// NodeKeys are the keys of a machine that power credential overrides match.
type NodeKeys struct {
	PXEMac   string
	IPMIIP   string
	Hostname string
}

// PowerSelection is the Vault path chosen for a machine's BMC credentials
// and why; Override is nil when the site default applies.
type PowerSelection struct {
	VaultPath string
	Override  *PowerOverride
}

// SelectPowerCredentials applies seed 001 §3.2.1: an active override
// matching the PXE MAC, else the IPMI IP, else the hostname, else the site
// default. MACs and IPs compare by value, hostnames case-insensitively; an
// empty key matches nothing.
func SelectPowerCredentials(defaultPath string, overrides []PowerOverride, k NodeKeys) PowerSelection {
	keys := map[SelectorType]string{SelectPXEMac: k.PXEMac, SelectIPMIIP: k.IPMIIP, SelectHostname: k.Hostname}
	for _, by := range SelectorOrder {
		key := keys[by]
		if key == "" {
			continue
		}
		for i, o := range overrides {
			if o.Status == "active" && o.SelectorType == by && selectorMatches(by, o.SelectorValue, key) {
				return PowerSelection{VaultPath: o.VaultPath, Override: &overrides[i]}
			}
		}
	}
	return PowerSelection{VaultPath: defaultPath}
}

// selectorMatches compares by value: MACs in any notation, IPs including
// IPv4-mapped IPv6, hostnames without case or a root dot.
func selectorMatches(by SelectorType, want, got string) bool {
	switch by {
	case SelectPXEMac:
		a, errA := net.ParseMAC(want)
		b, errB := net.ParseMAC(got)
		return errA == nil && errB == nil && bytes.Equal(a, b)
	case SelectIPMIIP:
		a, errA := netip.ParseAddr(want)
		b, errB := netip.ParseAddr(got)
		return errA == nil && errB == nil && a.Unmap() == b.Unmap()
	}
	return strings.EqualFold(strings.TrimSuffix(want, "."), strings.TrimSuffix(got, "."))
}
