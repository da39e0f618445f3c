package guardrails

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestCoreImportRules(t *testing.T) {
	module, pkgs := loadRepo(t)
	for _, v := range CheckImports(module, pkgs, CoreRules) {
		t.Error(v)
	}
}

// TestCoreRulesCatchBadTree breaks each core rule once, next to the
// imports the core may make.
func TestCoreRulesCatchBadTree(t *testing.T) {
	tree := fstest.MapFS{
		"go.mod":                    {Data: []byte("module " + mod + "\n\ngo 1.26\n")},
		"daemon/feed/f.go":          file("feed", mod+"/daemon/lifecycle", mod+"/daemon/workflow", mod+"/daemon/reconcile", mod+"/daemon/api/problem"),
		"daemon/reconcile/r.go":     file("reconcile", mod+"/daemon/lifecycle", mod+"/daemon/workflow"),
		"daemon/workflow/w.go":      file("workflow", mod+"/daemon/runner", mod+"/agent/wire", mod+"/daemon/api"),
		"daemon/runner/r.go":        file("runner", mod+"/daemon/lifecycle"),
		"daemon/api/admin/a.go":     file("admin", mod+"/daemon/reconcile", mod+"/daemon/workflow"),
		"daemon/lifecycle/l.go":     file("lifecycle", "encoding/json"),
		"daemon/workflow/w_test.go": file("workflow", mod+"/daemon/api/agentapi"),
	}
	module, pkgs, err := Load(tree)
	if err != nil {
		t.Fatalf("Load() = %v", err)
	}
	feedWhy := "the feed takes its types from the domain, not from the workflows or the reconciler"
	http := "the core never imports the HTTP layer"
	want := []Violation{
		{"daemon/feed/f.go", mod + "/daemon/workflow", feedWhy},
		{"daemon/feed/f.go", mod + "/daemon/reconcile", feedWhy},
		{"daemon/feed/f.go", mod + "/daemon/api/problem", http},
		{"daemon/reconcile/r.go", mod + "/daemon/workflow", "the reconciler takes its types from the domain, not from the workflows"},
		{"daemon/workflow/w.go", mod + "/daemon/api", http},
	}
	if d := cmp.Diff(want, CheckImports(module, pkgs, CoreRules)); d != "" {
		t.Errorf("import violations (-want +got):\n%s", d)
	}
}
