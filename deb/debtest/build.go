// Package debtest builds the Debian packages the way `make deb` does and
// holds the tests of what they contain (build tag integration): lintian,
// every file with its owner and mode, control fields, conffiles and
// byte-for-byte reproducibility. Other tests (the chroot install test)
// call Build to get packages of a chosen version; it needs make, the Go
// toolchain with cgo, libdqlite-dev and libraft-dev (the daemon links
// libdqlite), dpkg-shlibdeps and a module cache holding nfpm, not the
// network.
package debtest

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Packages are the paths of one build's packages.
type Packages struct {
	Daemon     string // maas-sidecar_<version>_amd64.deb
	AgentAMD64 string // gpuaas-node-agent_<version>_amd64.deb
	AgentARM64 string // gpuaas-node-agent_<version>_arm64.deb
}

// All lists the packages.
func (p Packages) All() []string { return []string{p.Daemon, p.AgentAMD64, p.AgentARM64} }

// Build runs `make deb` with DIST=dist (binaries under dist/build) and
// DEB_VERSION=version (empty: derived from git) and returns the packages.
func Build(tb testing.TB, dist, version string) Packages {
	tb.Helper()
	return BuildFrom(tb, dist, version, "")
}

// BuildFrom is Build with the packages' files (units, conffile, scripts)
// taken from the tree src instead of the repository (empty: the
// repository): a test makes an older release's package from it.
func BuildFrom(tb testing.TB, dist, version, src string) Packages {
	tb.Helper()
	root, err := RepoRoot()
	if err != nil {
		tb.Fatal(err)
	}
	args := []string{"-C", root, "--no-print-directory", "deb", "DIST=" + dist, "DEB_BUILD=" + filepath.Join(dist, "build")}
	if version != "" {
		args = append(args, "DEB_VERSION="+version)
	}
	if src != "" {
		args = append(args, "DEB_SRC="+src)
	}
	out, err := exec.Command("make", args...).CombinedOutput()
	if err != nil {
		tb.Fatalf("make deb: %v\n%s", err, out)
	}
	var p Packages
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case !strings.HasSuffix(line, ".deb"):
		case strings.HasPrefix(filepath.Base(line), "maas-sidecar_"):
			p.Daemon = line
		case strings.HasSuffix(line, "_amd64.deb"):
			p.AgentAMD64 = line
		case strings.HasSuffix(line, "_arm64.deb"):
			p.AgentARM64 = line
		}
	}
	if p.Daemon == "" || p.AgentAMD64 == "" || p.AgentARM64 == "" {
		tb.Fatalf("make deb did not list the three packages:\n%s", out)
	}
	return p
}

// RepoRoot is the repository root: the nearest directory above the
// working directory whose go.mod is the product's module.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte("module github.com/gpuaas/maas-sidecar\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("debtest: not inside the maas-sidecar repository")
		}
		dir = parent
	}
}
