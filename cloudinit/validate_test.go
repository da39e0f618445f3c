package cloudinit

import (
	"errors"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Params)
		field  string // "" means valid
	}{
		{"base is valid", func(*Params) {}, ""},
		{"empty node id", func(p *Params) { p.NodeID = "" }, "node_id"},
		{"node id with a space", func(p *Params) { p.NodeID = "node 1" }, "node_id"},
		{"site bundle without version", func(p *Params) { p.SiteBundle = &SiteBundle{URL: "https://x.example/b"} }, "site_bundle.version"},
		{"site bundle over http unpinned", func(p *Params) {
			p.SiteBundle = &SiteBundle{URL: "http://x.example/b", Version: "1"}
		}, "site_bundle.url"},
		{"site bundle over http pinned", func(p *Params) {
			p.SiteBundle = &SiteBundle{URL: "http://x.example/b", Version: "1", SHA256: strings.Repeat("0", 64)}
		}, ""},
		{"site bundle bad digest", func(p *Params) {
			p.SiteBundle = &SiteBundle{URL: "https://x.example/b", Version: "1", SHA256: "abc"}
		}, "site_bundle.sha256"},
		{"deploy user root", func(p *Params) { p.DeployUser.Name = "root" }, "deploy_user.name"},
		{"deploy user bad name", func(p *Params) { p.DeployUser.Name = "Admin;rm" }, "deploy_user.name"},
		{"empty password", func(p *Params) { p.DeployUser.Password = "" }, "deploy_user.password"},
		{"agent package over http unpinned", func(p *Params) { p.Agent.PackageURL = "http://pkg.example/a.deb" }, "agent.package_url"},
		{"agent package over http pinned", func(p *Params) {
			p.Agent.PackageURL, p.Agent.PackageSHA256 = "http://pkg.example/a.deb", strings.Repeat("f", 64)
		}, ""},
		{"agent package ftp", func(p *Params) { p.Agent.PackageURL = "ftp://pkg.example/a.deb" }, "agent.package_url"},
		{"agent package with a quote", func(p *Params) { p.Agent.PackageURL = "https://pkg.example/a'.deb" }, "agent.package_url"},
		{"agent api over http", func(p *Params) { p.Agent.APIURL = "http://sidecar.example:5291" }, "agent.api_url"},
		{"agent api relative", func(p *Params) { p.Agent.APIURL = "/internal" }, "agent.api_url"},
		{"no enrollment token", func(p *Params) { p.Agent.EnrollmentToken = "" }, "agent.enrollment_token"},
		{"token with newline", func(p *Params) { p.Agent.EnrollmentToken = "a\nb" }, "agent.enrollment_token"},
		{"CA bundle not PEM", func(p *Params) { p.Agent.CABundlePEM = "hello" }, "agent.ca_bundle_pem"},
		{"CA bundle holds a key", func(p *Params) { p.Agent.CABundlePEM = p.Agent.SigningPublicKey }, "agent.ca_bundle_pem"},
		{"signing key is a certificate", func(p *Params) { p.Agent.SigningPublicKey = p.Agent.CABundlePEM }, "agent.signing_public_key"},
		{"rack URL missing", func(p *Params) { p.HardwareSync.RackURL = "" }, "hardware_sync.rack_url"},
		{"rack URL with percent", func(p *Params) { p.HardwareSync.RackURL = "http://r:5248/MA%41S" }, "hardware_sync.rack_url"},
		{"system id upper case", func(p *Params) { p.HardwareSync.SystemID = "ABC" }, "hardware_sync.system_id"},
		{"token secret empty", func(p *Params) { p.HardwareSync.TokenSecret = "" }, "hardware_sync.token_secret"},
		{"interval not a span", func(p *Params) { p.HardwareSync.Interval = "15 minutes" }, "hardware_sync.interval"},
		{"interval compound", func(p *Params) { p.HardwareSync.Interval = "1h30m" }, ""},
		{"unknown fs type", func(p *Params) { p.Policy = Policy{InitShareDisks: true, ShareFSType: "btrfs"} }, "policy.share_fs_type"},
		{"force without init", func(p *Params) { p.Policy.ForceShareDisks = true }, "policy.force_share_disks"},
		{"RoCE /30", func(p *Params) { p.RoCE = []RoCEAssignment{{"enp1s0", "10.0.0.1/30"}} }, "roce[0].ipv4_cidr"},
		{"RoCE no prefix", func(p *Params) { p.RoCE = []RoCEAssignment{{"enp1s0", "10.0.0.1"}} }, "roce[0].ipv4_cidr"},
		{"RoCE IPv6", func(p *Params) { p.RoCE = []RoCEAssignment{{"enp1s0", "fd00::1/31"}} }, "roce[0].ipv4_cidr"},
		{"RoCE bad interface", func(p *Params) { p.RoCE = []RoCEAssignment{{"en p1;s0", "10.0.0.1/31"}} }, "roce[0].interface"},
		{"RoCE interface too long", func(p *Params) { p.RoCE = []RoCEAssignment{{"enp1s0f0np0abcde", "10.0.0.1/31"}} }, "roce[0].interface"},
		{"RoCE duplicate interface", func(p *Params) {
			p.RoCE = []RoCEAssignment{{"enp1s0", "10.0.0.1/31"}, {"enp1s0", "10.0.0.3/31"}}
		}, "roce[1].interface"},
		{"RoCE duplicate address", func(p *Params) {
			p.RoCE = []RoCEAssignment{{"enp1s0", "10.0.0.1/31"}, {"enp2s0", "10.0.0.1/31"}}
		}, "roce[1].ipv4_cidr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := baseParams(t)
			tt.mutate(&p)
			_, err := Renderer{Rand: fixedSalt()}.Render(p)
			var fe *FieldError
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("Render: %v, want success", err)
			case tt.field == "":
			case !errors.As(err, &fe):
				t.Fatalf("Render error %v, want a *FieldError for %s", err, tt.field)
			case fe.Field != tt.field:
				t.Errorf("error names %q (%v), want %q", fe.Field, err, tt.field)
			}
		})
	}
}

// TestValidateErrorsHideSecrets checks a refused secret is not echoed back.
func TestValidateErrorsHideSecrets(t *testing.T) {
	p := baseParams(t)
	p.HardwareSync.TokenSecret = "has space " + testTokenSecret
	err := p.Validate()
	if err == nil || strings.Contains(err.Error(), testTokenSecret) {
		t.Errorf("Validate = %v, want an error that does not contain the secret", err)
	}
}
