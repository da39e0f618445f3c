package guardrails

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestBoundaryRules(t *testing.T) {
	module, pkgs := loadRepo(t)
	for _, v := range CheckImports(module, pkgs, BoundaryRules) {
		t.Error(v)
	}
	for _, v := range CheckConfined(module, pkgs, Confinements) {
		t.Error(v)
	}
}

// boundaryTree breaks each boundary once, next to imports that are allowed.
var boundaryTree = fstest.MapFS{
	"go.mod":                          {Data: []byte("module " + mod + "\n\ngo 1.26\n")},
	"e2e/agentenv/env.go":             file("agentenv", mod+"/e2e/simhost"),
	"e2e/simhost/host.go":             file("simhost", mod+"/agent"),
	"daemon/workflow/w.go":            file("workflow", mod+"/e2e/simhost"),
	"daemon/workflow/w_test.go":       file("workflow", mod+"/e2e/simhost", mod+"/sim/devmode"),
	"sim/devmode/site.go":             file("devmode", mod+"/sim/maassim", mod+"/daemon/store/bolt"),
	"sim/simhost/host.go":             file("simhost", mod+"/agent", mod+"/sim/devmode"),
	"daemon/bridge/b.go":              file("bridge", mod+"/daemon/maas", mod+"/daemon/api/problem"),
	"daemon/feed/f.go":                file("feed", mod+"/sim/simhost"),
	"internal/sdnotify/s.go":          file("sdnotify", "github.com/coreos/go-systemd/v22/daemon", mod+"/daemon/lifecycle"),
	"sim/cmd/maassim/main.go":         file("main", mod+"/sim/simhost"),
	"daemon/cmd/maas-sidecar/main.go": file("main", mod+"/sim/devmode", mod+"/internal/sdnotify"),
}

func TestBoundaryCheckerCatchesBadTree(t *testing.T) {
	module, pkgs, err := Load(boundaryTree)
	if err != nil {
		t.Fatalf("Load() = %v", err)
	}
	want := []Violation{
		{"daemon/bridge/b.go", mod + "/daemon/api/problem", BoundaryRules[1].Why},
		{"internal/sdnotify/s.go", mod + "/daemon/lifecycle", BoundaryRules[2].Why},
		{"sim/devmode/site.go", mod + "/daemon/store/bolt", BoundaryRules[0].Why},
	}
	if d := cmp.Diff(want, CheckImports(module, pkgs, BoundaryRules)); d != "" {
		t.Errorf("rule violations (-want +got):\n%s", d)
	}
	want = []Violation{
		{"daemon/feed/f.go", mod + "/sim/simhost", Confinements[1].Why},
		{"daemon/workflow/w.go", mod + "/e2e/simhost", Confinements[0].Why},
	}
	if d := cmp.Diff(want, CheckConfined(module, pkgs, Confinements)); d != "" {
		t.Errorf("confinement violations (-want +got):\n%s", d)
	}
}
