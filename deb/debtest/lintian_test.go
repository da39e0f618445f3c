//go:build integration

package debtest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintian: no error and no warning on any package. Every override
// sits in deb/<package>/lintian-overrides with its reason above it.
func TestLintian(t *testing.T) {
	for _, deb := range packages(t).All() {
		t.Run(filepath.Base(deb), func(t *testing.T) {
			out, err := exec.Command("lintian", "--fail-on", "error,warning", deb).CombinedOutput()
			var printed []string
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				// lintian's own remark when the tests run as root.
				if l != "" && !strings.Contains(l, "running with root privileges is not recommended") {
					printed = append(printed, l)
				}
			}
			if err != nil || len(printed) > 0 {
				t.Errorf("lintian %s: %v\n%s", deb, err, strings.Join(printed, "\n"))
			}
		})
	}
}

// TestOverridesHaveReasons: each override line has a # reason above it.
func TestOverridesHaveReasons(t *testing.T) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"maas-sidecar", "gpuaas-node-agent"} {
		lines := readLines(t, filepath.Join(root, "deb", pkg, "lintian-overrides"))
		for i, l := range lines {
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			if i == 0 || !strings.HasPrefix(lines[i-1], "# ") {
				t.Errorf("%s override %q has no one-line reason above it", pkg, l)
			}
		}
	}
}
