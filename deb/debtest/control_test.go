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

// daemonDepends is the daemon's Depends on Debian 12 (the release the
// install test targets): adduser for its maintainer scripts, then what
// dpkg-shlibdeps derives from the binary's NEEDED libraries. A build host
// with newer libraries raises the minimum versions, and this test fails
// rather than let such a package reach Debian 12.
const daemonDepends = "adduser, libc6 (>= 2.34), libdqlite0 (>= 1.11.1), libsqlite3-0 (>= 3.12.0)"

// daemonNeeded are the daemon's NEEDED libraries: libdqlite (which brings
// libraft and libuv itself), the system SQLite (tag libsqlite3) and libc.
var daemonNeeded = []string{"libc.so.6", "libdqlite.so.0", "libsqlite3.so.0"}

// TestControl: the fields that decide what installs where. The daemon
// needs adduser for its maintainer scripts and the shared libraries it
// links, and works without ipmitool (only PXE discovery needs it), so
// ipmitool is a Recommends; the static agent needs no libc.
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
