//go:build integration

package systemd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnitsVerify runs systemd-analyze verify on each shipped unit, with
// ExecStart pointing at a freshly built binary, and fails on any output:
// systemd-analyze exits 0 on many parse errors.
func TestUnitsVerify(t *testing.T) {
	const agent, daemon = "github.com/gpuaas/maas-sidecar/agent/cmd/gpuaas-node-agent", "github.com/gpuaas/maas-sidecar/daemon/cmd/maas-sidecar"
	for unit, bin := range map[string][2]string{
		"gpuaas-node-agent":           {"gpuaas-node-agent", agent},
		"maas-sidecar":                {"maas-sidecar", daemon},
		"maas-sidecar-notify-forward": {"maas-sidecar", daemon},
	} {
		t.Run(unit, func(t *testing.T) { verifyUnit(t, unit, bin[0], bin[1]) })
	}
}

// verifyUnit verifies the unit name, its ExecStart binary built from pkg.
func verifyUnit(t *testing.T, name, binName, pkg string) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Fatal("systemd-analyze is missing: install the Debian package systemd (hack/install-test-deps.sh)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, binName)
	build := exec.Command("go", "build", "-o", bin, pkg)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", name, err, out)
	}
	unit, err := os.ReadFile(name + ".service")
	if err != nil {
		t.Fatal(err)
	}
	exec0 := "ExecStart=/usr/bin/" + binName + " "
	if !strings.Contains(string(unit), exec0) {
		t.Fatalf("unit no longer starts /usr/bin/%s", binName)
	}
	patched := strings.Replace(string(unit), exec0, "ExecStart="+bin+" ", 1)
	path := filepath.Join(dir, name+".service")
	if err := os.WriteFile(path, []byte(patched), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}
