//go:build integration

package installtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/deb/debtest"
)

// The versions the tests build: the upgrade goes from oldVersion to
// newVersion. Both are built from this tree (the build is reproducible),
// the older one with the conffile its release shipped (oldReleaseTree);
// the state of the previous release is the store's v0 fixture.
const (
	oldVersion = "0.9.0"
	newVersion = "1.0.0"
)

// retentionLines are what this release added to the conffile
// (events.retention); the previous release's conffile lacks them.
const retentionLines = "#   # Delivered events are pruned after retention; 0 keeps them all.\n#   retention: 168h\n"

// oldReleaseTree is the tree the previous release's package is made
// from: the repository's packaging files with the conffile as that
// release shipped it, so that the upgrade meets a conffile changed both
// by the operator and by the package (dpkg keeps the operator's and puts
// the package's beside it as config.yaml.dpkg-dist).
func oldReleaseTree(t *testing.T) string {
	t.Helper()
	root, err := debtest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []string{"deb", "systemd"} {
		if out, err := exec.Command("cp", "-a", filepath.Join(root, d), dir).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v\n%s", d, err, out)
		}
	}
	conf := filepath.Join(dir, "deb", "maas-sidecar", "config.yaml")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), retentionLines) {
		t.Fatalf("the conffile no longer holds the lines the previous release lacked:\n%s", retentionLines)
	}
	if err := os.WriteFile(conf, []byte(strings.Replace(string(b), retentionLines, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
