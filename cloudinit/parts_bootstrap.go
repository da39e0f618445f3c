package cloudinit

import (
	"fmt"
	"io"
)

// AgentConfig is /etc/gpuaas-node-agent/config.yaml as cloud-init writes it.
type AgentConfig struct {
	APIURL              string `yaml:"api_url"`
	NodeID              string `yaml:"node_id"`
	EnrollmentTokenPath string `yaml:"enrollment_token_path"`
	CABundlePath        string `yaml:"ca_bundle_path"`
	SigningPublicKey    string `yaml:"signing_public_key"`
	// Health is the passive health watch; nil leaves the agent's default.
	Health *AgentHealth `yaml:"health,omitempty"`
}

// AgentHealth is the agent config's health section.
type AgentHealth struct {
	Interval string `yaml:"interval"` // a Go duration, such as 5s
}

// digestArg is a sha256 argument for the fetch scripts; "-" skips the check.
func digestArg(sum string) string {
	if sum == "" {
		return "-"
	}
	return sum
}

func sitePart(b SiteBundle) part {
	return part{
		name: "00-site-bootstrap.cfg",
		header: []string{
			"Layer 1: infra-owned site bootstrap bundle " + b.Version + ".",
			"Runs first; its outcome is in " + BootstrapStateDir + "/site.status.",
		},
		cfg: cloudConfig{
			WriteFiles: []writeFile{file(siteBootstrapBin, "0755", static("site-bootstrap.sh"))},
			RunCmd:     [][]string{{siteBootstrapBin, b.URL, b.Version, digestArg(b.SHA256)}},
		},
	}
}

func userPart(u DeployUser, rand io.Reader) (part, error) {
	hash, err := hashPassword(u.Password, rand)
	if err != nil {
		return part{}, err
	}
	return part{
		name:   "10-deploy-user.cfg",
		header: []string{"Layer 2: the site's deploy user (password as a SHA-512 crypt hash)."},
		cfg: cloudConfig{Users: []any{"default", user{
			Name: u.Name, Groups: []string{"sudo"}, Shell: "/bin/bash",
			LockPasswd: false, HashedPasswd: hash,
		}}},
	}, nil
}

func agentPart(nodeID string, a Agent) (part, error) {
	ac := AgentConfig{
		APIURL: a.APIURL, NodeID: nodeID, EnrollmentTokenPath: EnrollmentTokenPath,
		CABundlePath: CABundlePath, SigningPublicKey: a.SigningPublicKey,
	}
	if a.HealthInterval > 0 {
		ac.Health = &AgentHealth{Interval: a.HealthInterval.String()}
	}
	cfg, err := marshalYAML(ac)
	if err != nil {
		return part{}, fmt.Errorf("encode agent config: %w", err)
	}
	return part{
		name:   "20-node-agent.cfg",
		header: []string{"Layer 3: gpuaas-node-agent install, config, enrollment token and CA bundle."},
		cfg: cloudConfig{
			WriteFiles: []writeFile{
				file(AgentConfigPath, "0644", string(cfg)),
				file(EnrollmentTokenPath, "0600", a.EnrollmentToken+"\n"),
				file(CABundlePath, "0644", a.CABundlePEM),
				file(installAgentBin, "0755", static("install-agent.sh")),
			},
			RunCmd: [][]string{{installAgentBin, a.PackageURL, digestArg(a.PackageSHA256)}},
		},
	}, nil
}
