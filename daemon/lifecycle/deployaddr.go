package lifecycle

import "fmt"

// DeployAddress is the address the daemon reaches a deployed host at
// (seed 001 §4.3 step 3): the first address linked on the interface
// named iface (the site's deploy_ssh_iface), else the first IP MAAS
// reports for the machine; source says which. Onboarding keeps it as
// the node's host and the reconciler follows it when the host's IP
// changes, so both agree on a host with several NICs. Both are "" when
// MAAS reports no address at all.
func DeployAddress(nics []NIC, iface string, m Machine) (addr, source string) {
	for _, n := range nics {
		if n.Name != iface {
			continue
		}
		for _, l := range n.Links {
			if l.IP != "" {
				return l.IP, "deploy_ssh_iface " + iface
			}
		}
	}
	if len(m.IPs) > 0 {
		return m.IPs[0], fmt.Sprintf("first MAAS IP (deploy_ssh_iface %s has no address)", iface)
	}
	return "", ""
}
