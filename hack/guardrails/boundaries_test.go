package guardrails

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// binaries are the commands that ship; their dependency graphs must hold no
// test support.
var binaries = []string{"./daemon/cmd/maas-sidecar", "./agent/cmd/gpuaas-node-agent"}

func TestBinariesLinkNoTestSupport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	module, _ := loadRepo(t)
	for _, bin := range binaries {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			cmd := exec.Command("go", "list", "-deps", bin)
			cmd.Dir = moduleRoot(t)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list -deps %s: %v", bin, err)
			}
			deps := strings.Fields(string(out))
			if !slices.Contains(deps, module+"/"+strings.TrimPrefix(bin, "./")) {
				t.Fatalf("go list -deps %s did not list the binary itself: %v", bin, deps)
			}
			for _, p := range TestSupport(module, deps) {
				t.Errorf("%s links %s: test support stays out of the binaries", bin, p)
			}
		})
	}
}

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

func TestTestSupport(t *testing.T) {
	deps := []string{"os", "internal/testlog", "testing", "testing/synctest", "net/http/httptest", "github.com/other/fakes",
		mod, mod + "/sim/maassim", mod + "/daemon/store/bolt", mod + "/sim/simhost",
		mod + "/e2e/simhost", mod + "/agent/systemd/fakesystemd", mod + "/daemon/store/storetest", mod + "/daemon/e2e"}
	want := []string{"testing", "testing/synctest", "net/http/httptest",
		mod + "/e2e/simhost", mod + "/agent/systemd/fakesystemd", mod + "/daemon/store/storetest", mod + "/daemon/e2e"}
	if d := cmp.Diff(want, TestSupport(mod, deps)); d != "" {
		t.Errorf("TestSupport (-want +got):\n%s", d)
	}
}
