package cloudinit

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Bootstrap renders first-boot payloads (the workflow's Bootstrap port)
// with the daemon's own agent bootstrap settings.
type Bootstrap struct {
	AgentAPIURL string // https://<region>:5291
	// AgentPackages are the gpuaas-node-agent .debs by Debian
	// architecture (amd64, arm64): each machine gets its own.
	AgentPackages    map[string]AgentPackage
	CABundlePEM      string
	SigningPublicKey string // PEM
	// RackURL, when set, is where machines report hardware sync; by
	// default lifecycle.RackURL of the site's MAAS URL.
	RackURL string
	// AgentHealthInterval is the agents' health watch interval; zero
	// leaves the agent's default.
	AgentHealthInterval time.Duration
	Rand                io.Reader
}

// AgentPackage is one architecture's gpuaas-node-agent .deb: https, or
// http pinned by its SHA-256 (hex).
type AgentPackage struct {
	URL, SHA256 string
}

// DefaultArch is the Debian architecture of a machine whose MAAS
// architecture is empty (MAAS's own default).
const DefaultArch = "amd64"

// Render renders s with the agent package of the machine's architecture.
// Errors: conflict when no package is configured for that architecture
// (a site capability), invalid for a payload that does not validate.
func (b Bootstrap) Render(s lifecycle.BootstrapSpec) ([]byte, error) {
	const op = "bootstrap.Render"
	pkg, err := b.agentPackage(s)
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeConflict, op, err)
	}
	p := Params{
		NodeID:     s.NodeID,
		DeployUser: DeployUser{Name: s.Site.DeployUser, Password: s.DeployPassword.Reveal()},
		Agent: Agent{PackageURL: pkg.URL, PackageSHA256: pkg.SHA256, APIURL: b.AgentAPIURL,
			EnrollmentToken: s.EnrollmentToken.Reveal(), CABundlePEM: b.CABundlePEM, SigningPublicKey: b.SigningPublicKey,
			HealthInterval: b.AgentHealthInterval},
		Policy:      Policy{InitShareDisks: s.Policy.InitShareDisks, EnablePhase2RoCE: s.Policy.EnablePhase2RoCE},
		UpstreamDNS: s.Site.UpstreamDNSServers,
	}
	if ref := s.Policy.SiteBootstrapBundleRef; ref != "" {
		p.SiteBundle = &SiteBundle{URL: ref}
	}
	rack := b.RackURL
	if rack == "" {
		rack = lifecycle.RackURL(s.Site.APIBaseURL)
	}
	p.HardwareSync = HardwareSync{RackURL: rack, SystemID: s.SystemID, Interval: s.Policy.HardwareSyncInterval}
	if t := s.MachineToken; t != nil {
		p.HardwareSync.ConsumerKey, p.HardwareSync.TokenKey, p.HardwareSync.TokenSecret = t.ConsumerKey, t.TokenKey, t.TokenSecret.Reveal()
	}
	for _, a := range s.RoCE {
		p.RoCE = append(p.RoCE, RoCEAssignment{Interface: a.Interface, IPv4CIDR: a.IPv4CIDR})
	}
	out, err := Renderer{Rand: b.Rand}.Render(p)
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeInvalid, op, err)
	}
	return out, nil
}

// agentPackage picks the package of the machine's Debian architecture,
// the part of its MAAS architecture before "/" (arm64/generic: arm64).
func (b Bootstrap) agentPackage(s lifecycle.BootstrapSpec) (AgentPackage, error) {
	arch, _, _ := strings.Cut(s.Architecture, "/")
	if arch == "" {
		arch = DefaultArch
	}
	if p, ok := b.AgentPackages[arch]; ok && p.URL != "" {
		return p, nil
	}
	key := "agent.packages." + arch + ".url"
	if arch == "amd64" {
		key += " (or agent.package_url)"
	}
	return AgentPackage{}, fmt.Errorf("no gpuaas-node-agent package is configured for architecture %s (machine %s is %q): "+
		"set %s, or the machine could not install the agent", arch, s.SystemID, s.Architecture, key)
}
