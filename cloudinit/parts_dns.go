package cloudinit

import (
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// UpstreamDNSDropIn is where the site's upstream DNS servers are written
// on the deployed host: a systemd-resolved drop-in.
const UpstreamDNSDropIn = "/etc/systemd/resolved.conf.d/60-gpuaas-upstream-dns.conf"

// maxUpstreamDNS bounds the list, as the admin API does.
const maxUpstreamDNS = 8

// dnsPart writes the site's upstream DNS servers as systemd-resolved's
// global DNS= and restarts resolved. MAAS's netplan keeps giving each
// link the MAAS DNS: resolved asks both, so the site's machines keep
// resolving through MAAS and public names resolve even where MAAS's DNS
// does not forward. Ubuntu's resolved.conf sets no DNS=, so the drop-in
// is the only global list.
func dnsPart(servers []string) part {
	body := "# maas-sidecar: the site's upstream_dns_servers, used beside the per-link\n" +
		"# DNS that MAAS's netplan configures.\n[Resolve]\nDNS=" + strings.Join(servers, " ") + "\n"
	return part{
		name:   "05-upstream-dns.cfg",
		header: []string{"Layer 1b: the site's upstream DNS servers (systemd-resolved global DNS=)."},
		cfg: cloudConfig{
			WriteFiles: []writeFile{file(UpstreamDNSDropIn, "0644", body)},
			RunCmd:     [][]string{{"systemctl", "try-restart", "systemd-resolved.service"}},
		},
	}
}

// validateUpstreamDNS: at most maxUpstreamDNS IP addresses.
func validateUpstreamDNS(servers []string) error {
	if len(servers) > maxUpstreamDNS {
		return &FieldError{"upstream_dns_servers", fmt.Sprintf("at most %d servers", maxUpstreamDNS)}
	}
	for i, s := range servers {
		if !lifecycle.ValidDNSServer(s) {
			return &FieldError{fmt.Sprintf("upstream_dns_servers[%d]", i), fmt.Sprintf("%.64q is not an IP address (without a zone)", s)}
		}
	}
	return nil
}
