package guardrails

import (
	"bufio"
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Binary is a command that ships: its module-relative package, the build
// of it that ships, and the module's packages it may link.
type Binary struct {
	Pkg   string   // e.g. "daemon/cmd/maas-sidecar"
	Tags  string   // the release build's tags
	Cgo   bool     // the release build's CGO_ENABLED
	Never []string // patterns it never links, whatever its allowlist says
	Allow []string // release/<name>.txt: every module package it may link
	// Tolerate are standard test packages a dependency of another module
	// links, each with the reason.
	Tolerate map[string]string
}

// neverShipped are the module's families no binary links: the simulators
// and dev mode, the tests' PostgreSQL, the end-to-end suites and the tools.
var neverShipped = []string{"sim/...", "internal/pgcluster/...", "internal/pgtest/...", "e2e/...", "hack/..."}

//go:embed release/*.txt
var allowlists embed.FS

// Releases are the binaries of make deb. The daemon links the agent's
// wire package (shared with the daemon by design) and nothing else of
// the agent; the agent links nothing of the daemon.
var Releases = []Binary{
	{Pkg: "daemon/cmd/maas-sidecar", Tags: "dqlite,libsqlite3", Cgo: true, Allow: allowlist("maas-sidecar"),
		Never:    append([]string{"agent/..."}, neverShipped...),
		Tolerate: map[string]string{"testing": "github.com/canonical/go-dqlite/internal/logging imports it for its test logger"}},
	{Pkg: "agent/cmd/gpuaas-node-agent", Allow: allowlist("gpuaas-node-agent"),
		Never: append([]string{"daemon/..."}, neverShipped...)},
}

// shared are the packages a Never pattern does not reach.
var shared = []string{"agent/wire"}

// allowlist reads release/<name>.txt: one package a line, # comments.
func allowlist(name string) []string {
	f, err := allowlists.Open("release/" + name + ".txt")
	if err != nil {
		panic(err) // embedded: a missing list is a build mistake
	}
	defer f.Close()
	var out []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// CheckRelease returns why a build of b whose `go list -deps` is deps may
// not ship: a package of module that is not on its allowlist, or that it
// never links (on the list or not), and the standard library's test
// support (but those b.Tolerate names). Packages of other modules are
// not judged here.
func CheckRelease(module string, b Binary, deps []string) []string {
	var out []string
	for _, d := range deps {
		if _, ok := b.Tolerate[d]; ok {
			continue
		}
		if d == "testing" || strings.HasPrefix(d, "testing/") || d == "net/http/httptest" {
			out = append(out, fmt.Sprintf("%s links %s: test support", b.Pkg, d))
			continue
		}
		rel, ok := relative(module, d)
		if !ok {
			continue
		}
		if why := never(b, rel); why != "" {
			out = append(out, fmt.Sprintf("%s links %s: %s", b.Pkg, rel, why))
		} else if !slices.Contains(b.Allow, rel) {
			out = append(out, fmt.Sprintf("%s links %s, which is not on its allowlist (hack/guardrails/release)", b.Pkg, rel))
		}
	}
	return out
}

// CheckAllowlist returns the entries of b's allowlist that it may never
// link, and those its release build no longer links (deps).
func CheckAllowlist(module string, b Binary, deps []string) []string {
	var out []string
	for _, a := range b.Allow {
		if why := never(b, a); why != "" {
			out = append(out, fmt.Sprintf("%s's allowlist names %s: %s", b.Pkg, a, why))
		} else if !slices.Contains(deps, path.Join(module, a)) {
			out = append(out, fmt.Sprintf("%s's allowlist names %s, which it does not link", b.Pkg, a))
		}
	}
	return out
}

// never says why b may not link rel, the module-relative path of a
// package, or "" where it may.
func never(b Binary, rel string) string {
	if slices.Contains(shared, rel) {
		return ""
	}
	if matchAny(b.Never, rel) {
		return "never in this binary (a simulator, dev mode, the other binary, test or tool code)"
	}
	for _, el := range strings.Split(rel, "/") {
		if el == "e2e" || strings.HasPrefix(el, "fake") || strings.HasSuffix(el, "test") {
			return "test support"
		}
	}
	return ""
}
