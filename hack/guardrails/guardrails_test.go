package guardrails

import (
	"os"
	"path/filepath"
	"testing"
)

// moduleRoot walks up from the test's directory to the enclosing go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

func loadRepo(t *testing.T) (string, []Package) {
	t.Helper()
	module, pkgs, err := Load(os.DirFS(moduleRoot(t)))
	if err != nil {
		t.Fatalf("Load() = %v", err)
	}
	// The guard must see the real tree, not an empty one.
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p.Dir] = true
	}
	for _, want := range []string{"daemon/lifecycle", "daemon/api", "daemon/cmd/maas-sidecar", "hack/guardrails"} {
		if !seen[want] {
			t.Fatalf("Load() did not find package %s; found %d packages", want, len(pkgs))
		}
	}
	return module, pkgs
}

func TestEveryPackageIsDocumented(t *testing.T) {
	_, pkgs := loadRepo(t)
	for _, dir := range CheckDocs(pkgs) {
		t.Errorf("package %s has no package doc comment in any non-test file", dir)
	}
}

func TestImportRules(t *testing.T) {
	module, pkgs := loadRepo(t)
	for _, v := range CheckImports(module, pkgs, Rules) {
		t.Error(v)
	}
}
