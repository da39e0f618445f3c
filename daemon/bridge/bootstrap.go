package bridge

import (
	"io"
	"net"
	"net/url"

	"github.com/gpuaas/maas-sidecar/cloudinit"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
)

// Bootstrap renders first-boot payloads with the daemon's own agent
// bootstrap settings.
type Bootstrap struct {
	AgentAPIURL      string // https://<region>:5291
	AgentPackageURL  string
	AgentPackageSHA  string
	CABundlePEM      string
	SigningPublicKey string // PEM
	// RackURL, when set, is where machines report hardware sync; by
	// default the region's host on MAAS's rack port 5248.
	RackURL string
	Rand    io.Reader
}

var _ workflow.Bootstrap = Bootstrap{}

// Render implements workflow.Bootstrap.
func (b Bootstrap) Render(s workflow.BootstrapSpec) ([]byte, error) {
	if b.AgentPackageURL == "" {
		return nil, runner.Classed(lifecycle.FailSiteCapabilityMissing, lifecycle.Errorf(lifecycle.CodeConflict,
			"bootstrap.Render", "agent.package_url is not configured: deployed machines could not install the agent"))
	}
	p := cloudinit.Params{
		NodeID:     s.NodeID,
		DeployUser: cloudinit.DeployUser{Name: s.Site.DeployUser, Password: s.DeployPassword},
		Agent: cloudinit.Agent{PackageURL: b.AgentPackageURL, PackageSHA256: b.AgentPackageSHA, APIURL: b.AgentAPIURL,
			EnrollmentToken: s.EnrollmentToken, CABundlePEM: b.CABundlePEM, SigningPublicKey: b.SigningPublicKey},
		Policy: cloudinit.Policy{InitShareDisks: s.Policy.InitShareDisks, EnablePhase2RoCE: s.Policy.EnablePhase2RoCE},
	}
	if ref := s.Policy.SiteBootstrapBundleRef; ref != "" {
		p.SiteBundle = &cloudinit.SiteBundle{URL: ref}
	}
	rack := b.RackURL
	if rack == "" {
		rack = rackURL(s.Site.APIBaseURL)
	}
	p.HardwareSync = cloudinit.HardwareSync{RackURL: rack, SystemID: s.SystemID,
		Interval: s.Policy.HardwareSyncInterval}
	if t := s.MachineToken; t != nil {
		p.HardwareSync.ConsumerKey, p.HardwareSync.TokenKey, p.HardwareSync.TokenSecret = t.ConsumerKey, t.TokenKey, t.TokenSecret
	}
	for _, a := range s.RoCE {
		p.RoCE = append(p.RoCE, cloudinit.RoCEAssignment{Interface: a.Interface, IPv4CIDR: a.IPv4CIDR})
	}
	out, err := cloudinit.Renderer{Rand: b.Rand}.Render(p)
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeInvalid, "bootstrap.Render", err)
	}
	return out, nil
}

// rackURL is where a deployed machine reports hardware sync: the region's
// host on the rack port 5248 (MAAS's metadata endpoint for nodes).
func rackURL(apiBase string) string {
	u, err := url.Parse(apiBase)
	if err != nil {
		return apiBase
	}
	host := u.Hostname()
	u.Host = net.JoinHostPort(host, "5248")
	u.Path = "/MAAS"
	return u.String()
}
