package guardrails

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goListDeps is `go list -deps` of the module's package pkg built with
// tags and cgo on or off.
func goListDeps(t *testing.T, module, pkg, tags string, cgo bool) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-tags", tags, "./"+pkg)
	cmd.Dir = moduleRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED="+map[bool]string{false: "0", true: "1"}[cgo])
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps -tags %q %s: %v", tags, pkg, err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"/"+pkg) {
		t.Fatalf("go list -deps %s did not list the binary itself: %v", pkg, deps)
	}
	return deps
}

// The binaries make deb ships link only the module packages on their
// allowlists, each of which they do link, and no simulator, dev mode,
// other binary's package, pgcluster, pgtest or test support. The
// daemon's build without the dqlite tags links a subset.
func TestReleaseBinariesLinkOnlyTheProduct(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	module, _ := loadRepo(t)
	for _, b := range Releases {
		t.Run(b.Pkg, func(t *testing.T) {
			deps := goListDeps(t, module, b.Pkg, b.Tags, b.Cgo)
			for _, p := range append(CheckRelease(module, b, deps), CheckAllowlist(module, b, deps)...) {
				t.Error(p)
			}
		})
	}
	t.Run("daemon/cmd/maas-sidecar untagged", func(t *testing.T) {
		for _, p := range CheckRelease(module, Releases[0], goListDeps(t, module, Releases[0].Pkg, "", false)) {
			t.Error(p)
		}
	})
}

// The check fails the daemon built with the dev tag: it links dev mode,
// the simulators, the node agent and pgcluster.
func TestReleaseCheckCatchesDevBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	module, _ := loadRepo(t)
	b := Releases[0]
	got := strings.Join(CheckRelease(module, b, goListDeps(t, module, b.Pkg, b.Tags+",dev", b.Cgo)), "\n")
	for _, want := range []string{"links sim/devmode: never", "links sim/maassim: never", "links sim/simhost: never",
		"links agent: never", "links agent/task: never", "links internal/pgcluster: never"} {
		if !strings.Contains(got, want) {
			t.Errorf("CheckRelease(dev build) does not say %q; it says:\n%s", want, got)
		}
	}
}

func TestCheckRelease(t *testing.T) {
	b := Binary{Pkg: "daemon/cmd/d", Never: Releases[0].Never,
		Allow: []string{"daemon/api", "agent/wire", "internal/pgcluster", "daemon/store/storetest", "daemon/gone"}}
	deps := []string{"os", "testing", "net/http/httptest", "github.com/other/fakes", mod + "/daemon/api", mod + "/agent/wire",
		mod + "/sim/maassim", mod + "/agent/task", mod + "/internal/pgcluster", mod + "/daemon/new",
		mod + "/daemon/store/storetest", mod + "/daemon/fakemaas", mod + "/e2e/simhost"}
	never := ": never in this binary (a simulator, dev mode, the other binary, test or tool code)"
	want := []string{
		"daemon/cmd/d links testing: test support",
		"daemon/cmd/d links net/http/httptest: test support",
		"daemon/cmd/d links sim/maassim" + never,
		"daemon/cmd/d links agent/task" + never,
		"daemon/cmd/d links internal/pgcluster" + never,
		"daemon/cmd/d links daemon/new, which is not on its allowlist (hack/guardrails/release)",
		"daemon/cmd/d links daemon/store/storetest: test support",
		"daemon/cmd/d links daemon/fakemaas: test support",
		"daemon/cmd/d links e2e/simhost" + never,
	}
	if d := cmp.Diff(want, CheckRelease(mod, b, deps)); d != "" {
		t.Errorf("CheckRelease (-want +got):\n%s", d)
	}
	want = []string{
		"daemon/cmd/d's allowlist names internal/pgcluster" + never,
		"daemon/cmd/d's allowlist names daemon/store/storetest: test support",
		"daemon/cmd/d's allowlist names daemon/gone, which it does not link",
	}
	if d := cmp.Diff(want, CheckAllowlist(mod, b, deps)); d != "" {
		t.Errorf("CheckAllowlist (-want +got):\n%s", d)
	}
}
