package cloudinit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var (
	amdPkg = AgentPackage{URL: "https://packages.example.net/gpuaas-node-agent_1.2.3_amd64.deb"}
	armPkg = AgentPackage{URL: "http://packages.example.net/gpuaas-node-agent_1.2.3_arm64.deb", SHA256: strings.Repeat("ef", 32)}
)

func testBootstrap(t *testing.T, pkgs map[string]AgentPackage) Bootstrap {
	t.Helper()
	return Bootstrap{AgentAPIURL: "https://sidecar.region1.example.net:5291", AgentPackages: pkgs,
		CABundlePEM: readTestdata(t, "ca.pem"), SigningPublicKey: readTestdata(t, "signing.pub.pem"),
		Rand: fixedSalt()}
}

func testSpec(arch string) lifecycle.BootstrapSpec {
	return lifecycle.BootstrapSpec{Site: lifecycle.Site{DeployUser: "hpcadmin", APIBaseURL: "http://10.20.0.2:5240/MAAS/"},
		NodeID: "node-0001", SystemID: "x7rkfa", Architecture: arch, DeployPassword: testPassword,
		EnrollmentToken: testToken}
}

// installCommand returns the rendered runcmd entry that installs the agent.
func installCommand(t *testing.T, ud []byte) []string {
	t.Helper()
	for _, part := range splitMIME(t, ud) {
		var cfg struct {
			RunCmd [][]string `yaml:"runcmd"`
		}
		if err := yaml.Unmarshal([]byte(part.Body), &cfg); err != nil {
			t.Fatalf("%s: %v", part.Name, err)
		}
		for _, c := range cfg.RunCmd {
			if len(c) > 0 && c[0] == installAgentBin {
				return c
			}
		}
	}
	t.Fatal("no agent install command in the user-data")
	return nil
}

// TestBootstrapPicksThePackageOfTheArchitecture: the install command gets
// the package of the machine's Debian architecture.
func TestBootstrapPicksThePackageOfTheArchitecture(t *testing.T) {
	both := map[string]AgentPackage{"amd64": amdPkg, "arm64": armPkg}
	tests := []struct {
		arch string
		want []string
	}{
		{"amd64/generic", []string{installAgentBin, amdPkg.URL, "-"}},
		{"arm64/generic", []string{installAgentBin, armPkg.URL, armPkg.SHA256}},
		{"arm64", []string{installAgentBin, armPkg.URL, armPkg.SHA256}},
		{"", []string{installAgentBin, amdPkg.URL, "-"}}, // MAAS reports none: its default, amd64
	}
	for _, tt := range tests {
		t.Run(tt.arch, func(t *testing.T) {
			ud, err := testBootstrap(t, both).Render(testSpec(tt.arch))
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			if d := cmp.Diff(tt.want, installCommand(t, ud)); d != "" {
				t.Errorf("install command (-want +got):\n%s", d)
			}
		})
	}
}

// TestBootstrapWithoutThePackageOfTheArchitecture: a conflict (a missing
// site capability) naming the architecture and the key to set.
func TestBootstrapWithoutThePackageOfTheArchitecture(t *testing.T) {
	tests := []struct {
		name, arch string
		pkgs       map[string]AgentPackage
		want       []string
	}{
		{"arm64 machine, amd64 package", "arm64/generic", map[string]AgentPackage{"amd64": amdPkg},
			[]string{"architecture arm64", `machine x7rkfa is "arm64/generic"`, "set agent.packages.arm64.url"}},
		{"no package at all", "amd64/generic", nil,
			[]string{"architecture amd64", "set agent.packages.amd64.url (or agent.package_url)"}},
		{"ppc64el", "ppc64el/generic", map[string]AgentPackage{"amd64": amdPkg, "arm64": armPkg},
			[]string{"architecture ppc64el", "agent.packages.ppc64el.url"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ud, err := testBootstrap(t, tt.pkgs).Render(testSpec(tt.arch))
			if lifecycle.ErrorCode(err) != lifecycle.CodeConflict || ud != nil {
				t.Fatalf("Render = %d bytes, %v; want a conflict", len(ud), err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
