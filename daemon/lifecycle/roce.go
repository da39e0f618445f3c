package lifecycle

import (
	"net/netip"
	"strings"
	"time"
)

// RoCEAssignment is one RoCE interface address of one host (seed 001 §3.3),
// unique per (site, hostname, interface).
type RoCEAssignment struct {
	ID        string    `json:"id"`
	SiteID    string    `json:"site_id"`
	Hostname  string    `json:"hostname"`
	Interface string    `json:"interface"`
	IPv4CIDR  string    `json:"ipv4_cidr"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Validate checks the assignment, naming the bad field.
func (a RoCEAssignment) Validate() error {
	const op = "lifecycle.RoCEAssignment"
	if !ValidHostname(a.Hostname) {
		return Invalid(op, "hostname", "%q is not a hostname", a.Hostname)
	}
	if a.Interface == "" || len(a.Interface) > 15 || strings.ContainsAny(a.Interface, " /\t") {
		return Invalid(op, "interface", "%q is not a Linux interface name", a.Interface)
	}
	p, err := netip.ParsePrefix(a.IPv4CIDR)
	if err != nil || !p.Addr().Is4() {
		return Invalid(op, "ipv4_cidr", "%q is not an IPv4 CIDR such as 172.30.9.61/31", a.IPv4CIDR)
	}
	if p.Bits() < 24 {
		return Invalid(op, "ipv4_cidr", "%q is wider than /24; RoCE links are point-to-point (/31 or /30)", a.IPv4CIDR)
	}
	return nil
}
