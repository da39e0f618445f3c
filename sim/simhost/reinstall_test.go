package simhost_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuaas/maas-sidecar/sim/simhost"
)

// A redeploy gives the host a fresh OS and keeps the data drives' bytes.
func TestReinstallKeepsTheDataDrives(t *testing.T) {
	root := filepath.Join(t.TempDir(), "gpu-001")
	for p, v := range map[string]string{"dev/nvme1n1": "tenant bytes", "dev/nvme0n1": "old os", "etc/passwd": "tenant1:x:1001"} {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755))
		must(t, os.WriteFile(filepath.Join(root, p), []byte(v), 0o600))
	}
	must(t, simhost.Reinstall(root))
	if b, _ := os.ReadFile(filepath.Join(root, "dev/nvme1n1")); string(b) != "tenant bytes" {
		t.Errorf("the data drive holds %q after the reinstall", b)
	}
	for _, gone := range []string{"dev/nvme0n1", "etc/passwd"} {
		if _, err := os.Stat(filepath.Join(root, gone)); err == nil {
			t.Errorf("%s survived the reinstall", gone)
		}
	}
	must(t, simhost.Reinstall(filepath.Join(t.TempDir(), "fresh")))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
