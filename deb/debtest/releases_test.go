//go:build integration

package debtest

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// release is one release the packages support, with its glibc (the
// version of its libc6 package).
type release struct {
	name, glibc string
}

// supportedReleases is where one `make deb` output installs: the
// releases MAAS region controllers run, and the Debian releases the
// install test (deb/installtest) installs into. README's Install section
// and docs/packaging.md list the same.
var supportedReleases = []release{
	{"Ubuntu 20.04 (focal)", "2.31"},
	{"Ubuntu 22.04 (jammy)", "2.35"},
	{"Ubuntu 24.04 (noble)", "2.39"},
	{"Ubuntu 26.04", "2.42"}, // at least 25.10's
	{"Debian 11 (bullseye)", "2.31"},
	{"Debian 12 (bookworm)", "2.36"},
	{"Debian 13 (trixie)", "2.41"},
}

// onEveryRelease are the packages a Depends or Recommends may name
// without a version: every supported release has them.
var onEveryRelease = map[string]bool{"adduser": true, "ipmitool": true}

// bundled are the libraries the daemon carries (linked statically): a
// relation to any of them would tie the package to one release's version.
var bundled = regexp.MustCompile(`^lib(dqlite|raft|uv|lz4|sqlite)`)

// TestDependsOnSupportedReleases: every relation of every package can be
// met on every supported release: no bundled library, a libc6 (if any)
// no newer than the oldest glibc, nothing else but packages every
// release has; and no binary needs a GLIBC_ symbol version newer than a
// release's glibc (a static binary needs none).
func TestDependsOnSupportedReleases(t *testing.T) {
	p := packages(t)
	bins := map[string]string{p.Daemon: "usr/bin/maas-sidecar",
		p.AgentAMD64: "usr/bin/gpuaas-node-agent", p.AgentARM64: "usr/bin/gpuaas-node-agent"}
	for _, deb := range p.All() {
		t.Run(filepath.Base(deb), func(t *testing.T) {
			glibc := maxGlibcSymbol(t, filepath.Join(extract(t, deb), bins[deb]))
			for _, field := range []string{"Depends", "Recommends"} {
				for _, rel := range relations(t, deb, field) {
					checkRelation(t, field, rel)
				}
			}
			for _, r := range supportedReleases {
				if glibc != "" && versionLess(r.glibc, glibc) {
					t.Errorf("%s needs GLIBC_%s, newer than %s's glibc %s", bins[deb], glibc, r.name, r.glibc)
				}
			}
		})
	}
}

// checkRelation fails the test unless rel ("name" or "name (>= v)") can
// be met on every supported release.
func checkRelation(t *testing.T, field, rel string) {
	t.Helper()
	name, version, _ := strings.Cut(rel, " ")
	switch {
	case bundled.MatchString(name):
		t.Errorf("%s names %q: the daemon carries that library", field, rel)
	case name == "libc6":
		v, ok := strings.CutPrefix(version, "(>= ")
		v, ok2 := strings.CutSuffix(v, ")")
		for _, r := range supportedReleases {
			if !ok || !ok2 || versionLess(r.glibc, v) {
				t.Errorf("%s names %q: %s has glibc %s", field, rel, r.name, r.glibc)
			}
		}
	case version != "" || !onEveryRelease[name]:
		t.Errorf("%s names %q: not known to be on every supported release %v", field, rel, onEveryRelease)
	}
}

// relations splits a control field into its relations.
func relations(t *testing.T, deb, name string) []string {
	t.Helper()
	var out []string
	for _, r := range strings.Split(field(t, deb, name), ",") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}
