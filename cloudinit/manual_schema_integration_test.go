//go:build integration

package cloudinit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestManualCloudInitSchema runs the real `cloud-init schema -c` on the
// manual bootstrap's mode=cloud_init document. A missing cloud-init fails
// the test (apt-get install cloud-init).
func TestManualCloudInitSchema(t *testing.T) {
	bin, err := exec.LookPath("cloud-init")
	if err != nil {
		t.Fatalf("cloud-init is not installed (apt-get install cloud-init): %v", err)
	}
	out, err := manualBootstrap(t, packageSum()).Manual("node-0001", lifecycle.Secret(testToken), lifecycle.ScriptCloudInit)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "manual.cfg")
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := exec.Command(bin, "schema", "-c", path).CombinedOutput()
	if err != nil || !strings.Contains(string(res), "Valid cloud-config") {
		t.Errorf("cloud-init schema -c: %v\n%s\n%s", err, res, out)
	}
}
