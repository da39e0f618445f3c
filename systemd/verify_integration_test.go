//go:build integration

package systemd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentUnitVerifies runs systemd-analyze verify on the agent's unit,
// with ExecStart pointing at a freshly built agent binary, and fails on
// any output: systemd-analyze exits 0 on many parse errors.
func TestAgentUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Fatal("systemd-analyze is missing: install the Debian package systemd (hack/install-test-deps.sh)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "gpuaas-node-agent")
	build := exec.Command("go", "build", "-o", bin, "github.com/gpuaas/maas-sidecar/agent/cmd/gpuaas-node-agent")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the agent: %v\n%s", err, out)
	}
	unit, err := os.ReadFile("gpuaas-node-agent.service")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(unit), "ExecStart=/usr/bin/gpuaas-node-agent ") {
		t.Fatal("unit no longer starts /usr/bin/gpuaas-node-agent")
	}
	patched := strings.Replace(string(unit), "ExecStart=/usr/bin/gpuaas-node-agent ", "ExecStart="+bin+" ", 1)
	path := filepath.Join(dir, "gpuaas-node-agent.service")
	if err := os.WriteFile(path, []byte(patched), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}
