package cloudinit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The site's upstream_dns_servers reach the deployed host as a
// systemd-resolved drop-in with DNS= and a restart of resolved; a site
// without them gets no part, and MAAS's netplan DNS alone.
func TestUpstreamDNSPart(t *testing.T) {
	const name = "05-upstream-dns.cfg"
	for _, tc := range []struct {
		what string
		dns  []string
	}{{"present", []string{"1.1.1.1", "8.8.8.8"}}, {"absent", nil}} {
		t.Run(tc.what, func(t *testing.T) {
			spec := testSpec("amd64/generic")
			spec.Site.UpstreamDNSServers = tc.dns
			ud, err := testBootstrap(t, map[string]AgentPackage{"amd64": amdPkg}).Render(spec)
			if err != nil {
				t.Fatal(err)
			}
			cfg, _, ok := findPart(t, ud, name)
			if ok != (tc.dns != nil) {
				t.Fatalf("part %s present %v, want %v", name, ok, tc.dns != nil)
			}
			if !ok {
				return
			}
			if len(cfg.WriteFiles) != 1 || cfg.WriteFiles[0].Path != UpstreamDNSDropIn ||
				!strings.Contains(cfg.WriteFiles[0].Content, "[Resolve]\nDNS=1.1.1.1 8.8.8.8\n") {
				t.Errorf("write_files = %+v, want %s with [Resolve] DNS=1.1.1.1 8.8.8.8", cfg.WriteFiles, UpstreamDNSDropIn)
			}
			if diff := cmp.Diff([][]string{{"systemctl", "try-restart", "systemd-resolved.service"}}, cfg.RunCmd); diff != "" {
				t.Errorf("runcmd (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpstreamDNSRefusedNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		dns   []string
		field string
	}{
		{[]string{"1.1.1.1", "dns.example.net"}, "upstream_dns_servers[1]"},
		{[]string{"fe80::1%x\n[Resolve]\nDNS=6.6.6.6"}, "upstream_dns_servers[0]"}, // a zone may hold a newline
		{strings.Fields("1.1.1.1 1.1.1.2 1.1.1.3 1.1.1.4 1.1.1.5 1.1.1.6 1.1.1.7 1.1.1.8 1.1.1.9"), "upstream_dns_servers"},
	} {
		p := baseParams(t)
		p.UpstreamDNS = tc.dns
		err := p.Validate()
		fe, ok := err.(*FieldError)
		if !ok || fe.Field != tc.field {
			t.Errorf("%v: Validate() = %v, want a FieldError on %s", tc.dns, err, tc.field)
		}
	}
}
