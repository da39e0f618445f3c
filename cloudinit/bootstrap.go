package cloudinit

import (
	"io"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Bootstrap renders first-boot payloads (the workflow's Bootstrap port)
// with the daemon's own agent bootstrap settings.
type Bootstrap struct {
	AgentAPIURL      string // https://<region>:5291
	AgentPackageURL  string
	AgentPackageSHA  string
	CABundlePEM      string
	SigningPublicKey string // PEM
	// RackURL, when set, is where machines report hardware sync; by
	// default lifecycle.RackURL of the site's MAAS URL.
	RackURL string
	Rand    io.Reader
}

// Render renders s. Errors: conflict when agent.package_url is not
// configured (a site capability), invalid for a payload that does not
// validate.
func (b Bootstrap) Render(s lifecycle.BootstrapSpec) ([]byte, error) {
	const op = "bootstrap.Render"
	if b.AgentPackageURL == "" {
		return nil, lifecycle.Errorf(lifecycle.CodeConflict, op,
			"agent.package_url is not configured: deployed machines could not install the agent")
	}
	p := Params{
		NodeID:     s.NodeID,
		DeployUser: DeployUser{Name: s.Site.DeployUser, Password: s.DeployPassword.Reveal()},
		Agent: Agent{PackageURL: b.AgentPackageURL, PackageSHA256: b.AgentPackageSHA, APIURL: b.AgentAPIURL,
			EnrollmentToken: s.EnrollmentToken.Reveal(), CABundlePEM: b.CABundlePEM, SigningPublicKey: b.SigningPublicKey},
		Policy: Policy{InitShareDisks: s.Policy.InitShareDisks, EnablePhase2RoCE: s.Policy.EnablePhase2RoCE},
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
