package lifecycle

import "net/netip"

// ValidDNSServer reports whether s is a plain IPv4 or IPv6 address that
// may be written into a host's resolver configuration: no zone, since
// netip accepts any text after '%' (a newline included), and none is
// meaningful for a DNS server reached through the host's routes.
func ValidDNSServer(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == ""
}
