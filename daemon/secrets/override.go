package secrets

import (
	"bytes"
	"context"
	"net"
	"net/netip"
	"strings"
)

// SelectorType names the node key a power credential override matches.
type SelectorType string

// The selector types, in the order they are tried.
const (
	ByPXEMAC   SelectorType = "pxe_mac"
	ByIPMIIP   SelectorType = "ipmi_ip"
	ByHostname SelectorType = "hostname"
)

// selectionOrder is the seed's order; the site default comes last.
var selectionOrder = []SelectorType{ByPXEMAC, ByIPMIIP, ByHostname}

// Override is one per-node power credential override of a site.
type Override struct {
	ID        string
	Selector  SelectorType
	Value     string // the MAC, IP or hostname it matches
	VaultPath string
	Active    bool
}

// NodeKeys are the keys of a node that overrides can match.
type NodeKeys struct {
	PXEMAC   string
	IPMIIP   string
	Hostname string
}

// Selection is the power credential path chosen for a node and why.
// OverrideID and By are empty when the site default applies.
type Selection struct {
	VaultPath  string
	OverrideID string
	By         SelectorType
}

// SelectPowerCredentials picks the path of a node's power credentials: an
// active override matching the PXE MAC, else the IPMI IP, else the
// hostname, else the site default. MACs and IPs compare by value, hostnames
// case-insensitively; an empty node key matches nothing.
func SelectPowerCredentials(defaultPath string, overrides []Override, n NodeKeys) Selection {
	keys := map[SelectorType]string{ByPXEMAC: n.PXEMAC, ByIPMIIP: n.IPMIIP, ByHostname: n.Hostname}
	for _, by := range selectionOrder {
		key := keys[by]
		if key == "" {
			continue
		}
		for _, o := range overrides {
			if o.Active && o.Selector == by && matches(by, o.Value, key) {
				return Selection{VaultPath: o.VaultPath, OverrideID: o.ID, By: by}
			}
		}
	}
	return Selection{VaultPath: defaultPath}
}

func matches(by SelectorType, want, got string) bool {
	switch by {
	case ByPXEMAC:
		a, errA := net.ParseMAC(want)
		b, errB := net.ParseMAC(got)
		if errA == nil && errB == nil {
			return bytes.Equal(a, b)
		}
	case ByIPMIIP:
		a, errA := netip.ParseAddr(want)
		b, errB := netip.ParseAddr(got)
		if errA == nil && errB == nil {
			return a.Unmap() == b.Unmap()
		}
	case ByHostname:
		return strings.EqualFold(strings.TrimSuffix(want, "."), strings.TrimSuffix(got, "."))
	}
	return want == got
}

// PowerCredentialsFor reads the power credentials SelectPowerCredentials
// chooses for the node, at the moment of the call.
func (s *Store) PowerCredentialsFor(ctx context.Context, defaultPath string, overrides []Override, n NodeKeys) (PowerCredentials, Selection, error) {
	sel := SelectPowerCredentials(defaultPath, overrides, n)
	c, err := s.PowerCredentials(ctx, sel.VaultPath)
	return c, sel, err
}
