//go:build integration

package cloudinit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCloudInitSchema runs the real `cloud-init schema -c` on every
// text/cloud-config part of each payload shape: with and without /shareN,
// with and without RoCE. A missing cloud-init fails the test: install the
// Debian package (hack/apt-packages.txt).
func TestCloudInitSchema(t *testing.T) {
	bin, err := exec.LookPath("cloud-init")
	if err != nil {
		t.Fatalf("cloud-init is not installed (apt-get install cloud-init): %v", err)
	}
	for name, p := range policyCases(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, part := range splitMIME(t, render(t, p)) {
				if part.ContentType != "text/cloud-config" {
					t.Fatalf("%s has type %s", part.Name, part.ContentType)
				}
				path := filepath.Join(dir, part.Name)
				if err := os.WriteFile(path, []byte(part.Body), 0o600); err != nil {
					t.Fatal(err)
				}
				out, err := exec.Command(bin, "schema", "-c", path).CombinedOutput()
				if err != nil || !strings.Contains(string(out), "Valid cloud-config") {
					t.Errorf("cloud-init schema -c %s: %v\n%s", part.Name, err, out)
				}
			}
		})
	}
}

// TestCloudInitSchemaCatchesBadParts proves the check above can fail: a
// part with an octal permission number is rejected by the same command.
func TestCloudInitSchemaCatchesBadParts(t *testing.T) {
	bin, err := exec.LookPath("cloud-init")
	if err != nil {
		t.Fatalf("cloud-init is not installed: %v", err)
	}
	path := filepath.Join(t.TempDir(), "bad.cfg")
	bad := "#cloud-config\nwrite_files:\n  - path: /x\n    permissions: 0600\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "schema", "-c", path).CombinedOutput(); err == nil {
		t.Errorf("cloud-init schema accepted an invalid part:\n%s", out)
	}
}
