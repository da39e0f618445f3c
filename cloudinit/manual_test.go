package cloudinit

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// testPackage is what the stub curl downloads as the agent package.
const testPackage = "not really a .deb\n"

func manualBootstrap(t *testing.T, sum string) Bootstrap {
	t.Helper()
	return Bootstrap{AgentAPIURL: "https://sidecar.region1.example.net:5291",
		AgentPackages: map[string]AgentPackage{
			"amd64": {URL: "http://packages.example.net/gpuaas-node-agent_1.2.3_amd64.deb", SHA256: sum},
			"arm64": {URL: "https://packages.example.net/gpuaas-node-agent_1.2.3_arm64.deb"},
		},
		CABundlePEM: readTestdata(t, "ca.pem"), SigningPublicKey: readTestdata(t, "signing.pub.pem")}
}

func packageSum() string {
	s := sha256.Sum256([]byte(testPackage))
	return hex.EncodeToString(s[:])
}

// stubHost is a directory of stub host tools (dpkg, apt-get, systemctl,
// curl) that log their arguments to calls.log; dpkg says arch.
func stubHost(t *testing.T, arch string) (bin, calls string) {
	t.Helper()
	bin = t.TempDir()
	calls = filepath.Join(bin, "calls.log")
	stubs := map[string]string{
		"dpkg":      `echo "dpkg $*" >>"$CALLS"; echo ` + arch,
		"apt-get":   `echo "apt-get $*" >>"$CALLS"`,
		"systemctl": `echo "systemctl $*" >>"$CALLS"`,
		// curl -fsSL --retry 5 --retry-delay 3 -o FILE URL
		"curl": `echo "curl $*" >>"$CALLS"; while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done; printf '` +
			strings.TrimSuffix(testPackage, "\n") + `\n' >"$out"`,
	}
	for name, body := range stubs {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin, calls
}

// runShell renders the shell bootstrap and runs it with sh in a fresh
// root, the stubs first on PATH; it returns the root, the tool calls and
// the script's error.
func runShell(t *testing.T, b Bootstrap, arch string) (string, string, error) {
	t.Helper()
	script, err := b.Manual("node-0001", lifecycle.Secret(testToken), lifecycle.ScriptShell)
	if err != nil {
		t.Fatalf("Manual shell: %v", err)
	}
	bin, calls := stubHost(t, arch)
	root := t.TempDir()
	cmd := exec.Command("sh", "-s")
	cmd.Stdin = strings.NewReader(string(script))
	cmd.Env = append(os.Environ(), "GPUAAS_BOOTSTRAP_ROOT="+root, "CALLS="+calls, "PATH="+bin+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("script output:\n%s", out)
	}
	log, _ := os.ReadFile(calls)
	return root, string(log), err
}

// TestManualShellInstalls runs the shell bootstrap on an amd64 host: the
// agent's files land under the root with their modes, the amd64 package
// is downloaded, checked and installed, and the unit enabled.
func TestManualShellInstalls(t *testing.T) {
	root, calls, err := runShell(t, manualBootstrap(t, packageSum()), "amd64")
	if err != nil {
		t.Fatalf("bootstrap failed: %v", err)
	}
	want := map[string]os.FileMode{AgentConfigPath: 0o644, EnrollmentTokenPath: 0o600, CABundlePath: 0o644,
		installAgentBin: 0o755, installArchBin: 0o755}
	for path, mode := range want {
		fi, err := os.Stat(filepath.Join(root, path))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), mode)
		}
	}
	tok, _ := os.ReadFile(filepath.Join(root, EnrollmentTokenPath))
	ca, _ := os.ReadFile(filepath.Join(root, CABundlePath))
	if string(tok) != testToken+"\n" || string(ca) != readTestdata(t, "ca.pem") {
		t.Errorf("token %q or CA bundle not written as given", tok)
	}
	var cfg AgentConfig
	b, _ := os.ReadFile(filepath.Join(root, AgentConfigPath))
	if err := yaml.Unmarshal(b, &cfg); err != nil || cfg.NodeID != "node-0001" || cfg.EnrollmentTokenPath != EnrollmentTokenPath ||
		cfg.APIURL != "https://sidecar.region1.example.net:5291" || cfg.SigningPublicKey != readTestdata(t, "signing.pub.pem") {
		t.Errorf("agent config %+v (%v)", cfg, err)
	}
	for _, c := range []string{"curl -fsSL --retry 5 --retry-delay 3 -o " + root + "/var/lib/gpuaas-bootstrap/gpuaas-node-agent.deb http://packages.example.net/gpuaas-node-agent_1.2.3_amd64.deb",
		"apt-get install -y -o Dpkg::Options::=--force-confold " + root + "/var/lib/gpuaas-bootstrap/gpuaas-node-agent.deb",
		"systemctl enable gpuaas-node-agent.service"} {
		if !strings.Contains(calls, c+"\n") {
			t.Errorf("no call %q in:\n%s", c, calls)
		}
	}
	if st, _ := os.ReadFile(filepath.Join(root, BootstrapStateDir, "agent.status")); string(st) != "ok\n" {
		t.Errorf("agent.status %q, want ok", st)
	}
}

// TestManualShellRefuses: a package whose sha256 does not match is not
// installed, nor is anything on a host of an architecture without one.
func TestManualShellRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ sum, arch, status string }{
		"digest mismatch": {strings.Repeat("ab", 32), "amd64", "failed step=verify\n"},
		"unknown arch":    {packageSum(), "riscv64", "failed step=arch\n"},
	} {
		t.Run(name, func(t *testing.T) {
			root, calls, err := runShell(t, manualBootstrap(t, tc.sum), tc.arch)
			if err == nil {
				t.Fatal("the bootstrap succeeded")
			}
			if strings.Contains(calls, "apt-get") {
				t.Errorf("installed anyway:\n%s", calls)
			}
			if st, _ := os.ReadFile(filepath.Join(root, BootstrapStateDir, "agent.status")); string(st) != tc.status {
				t.Errorf("agent.status %q, want %q", st, tc.status)
			}
		})
	}
}

// TestManualCloudInit: one #cloud-config document with the same files
// and the architecture picker as its command.
func TestManualCloudInit(t *testing.T) {
	out, err := manualBootstrap(t, packageSum()).Manual("node-0001", lifecycle.Secret(testToken), lifecycle.ScriptCloudInit)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "#cloud-config\n") {
		t.Fatalf("not a cloud-config document:\n%s", out)
	}
	var cfg cloudConfig
	if err := yaml.Unmarshal(out, &cfg); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{}
	for _, f := range cfg.WriteFiles {
		paths[f.Path] = f.Permissions
	}
	want := map[string]string{AgentConfigPath: "0644", EnrollmentTokenPath: "0600", CABundlePath: "0644",
		installAgentBin: "0755", installArchBin: "0755"}
	if len(paths) != len(want) || len(cfg.RunCmd) != 1 || cfg.RunCmd[0][0] != installArchBin {
		t.Fatalf("files %v, runcmd %v", paths, cfg.RunCmd)
	}
	for p, m := range want {
		if paths[p] != m {
			t.Errorf("%s: permissions %q, want %q", p, paths[p], m)
		}
	}
}

// TestManualErrors: no package is a conflict; bad input and an unknown
// mode are invalid.
func TestManualErrors(t *testing.T) {
	b := manualBootstrap(t, packageSum())
	none := b
	none.AgentPackages = nil
	badURL := manualBootstrap(t, packageSum())
	badURL.AgentPackages = map[string]AgentPackage{"amd64": {URL: "http://x/'; rm -rf /"}}
	for name, tc := range map[string]struct {
		b    Bootstrap
		mode lifecycle.ScriptMode
		tok  string
		code lifecycle.Code
	}{
		"no package":   {none, lifecycle.ScriptShell, testToken, lifecycle.CodeConflict},
		"bad url":      {badURL, lifecycle.ScriptShell, testToken, lifecycle.CodeInvalid},
		"no token":     {b, lifecycle.ScriptShell, "", lifecycle.CodeInvalid},
		"unknown mode": {b, "powershell", testToken, lifecycle.CodeInvalid},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := tc.b.Manual("node-0001", lifecycle.Secret(tc.tok), tc.mode)
			if code := lifecycle.ErrorCode(err); code != tc.code {
				t.Fatalf("code %q, want %q (%v)", code, tc.code, err)
			}
		})
	}
}
