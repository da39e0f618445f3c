//go:build integration

package debtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// daemonDepends is the daemon's Depends: adduser for its maintainer
// scripts and nothing that dpkg-shlibdeps derives, since the binary is
// static (docs/packaging.md); TestDependsOnSupportedReleases checks it
// against every release the package supports.
const daemonDepends = "adduser"

// TestControl: the fields that decide what installs where. The daemon
// needs adduser for its maintainer scripts, and works without ipmitool
// (only PXE discovery needs it), so ipmitool is a Recommends; both
// static binaries need no libc.
func TestControl(t *testing.T) {
	p := packages(t)
	fields := []string{"Package", "Architecture", "Depends", "Recommends", "Section", "Priority"}
	tests := []struct {
		deb  string
		want map[string]string
	}{
		{p.Daemon, map[string]string{"Package": "maas-sidecar", "Architecture": "amd64", "Depends": daemonDepends,
			"Recommends": "ipmitool", "Section": "admin", "Priority": "optional"}},
		{p.AgentAMD64, map[string]string{"Package": "gpuaas-node-agent", "Architecture": "amd64",
			"Section": "admin", "Priority": "optional"}},
		{p.AgentARM64, map[string]string{"Package": "gpuaas-node-agent", "Architecture": "arm64",
			"Section": "admin", "Priority": "optional"}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.deb), func(t *testing.T) {
			got := map[string]string{}
			for _, f := range fields {
				if v := field(t, tt.deb, f); v != "" {
					got[f] = v
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("control fields (-want +got):\n%s", diff)
			}
		})
	}
}

// field returns a control field of deb ("" when absent).
func field(t *testing.T, deb, name string) string {
	t.Helper()
	out, err := exec.Command("dpkg-deb", "--field", deb, name).Output()
	if err != nil {
		t.Fatalf("dpkg-deb --field %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}
