//go:build integration

package installtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// debSet is one `make deb` output.
type debSet struct {
	version string // DEB_VERSION it was built with
	sidecar string // maas-sidecar_<version>_amd64.deb
	agent   string // gpuaas-node-agent_<version>_amd64.deb
}

var (
	buildMu sync.Mutex // one `make deb` at a time: they share bin/
	built   = map[string]debSet{}
	distDir string // set by TestMain, removed after the run
)

// TestMain cleans up after killed runs, and owns the directory the
// packages are built into.
func TestMain(m *testing.M) {
	if err := sweepStale(); err != nil {
		fmt.Fprintln(os.Stderr, "installtest: warning:", err)
	}
	dir, err := os.MkdirTemp("", "installtest-dist-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	distDir = dir
	if err := markOwner(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// debs builds the packages at version with the repository's own
// `make deb` (once per version per run) and returns their paths.
func debs(t *testing.T, version string) debSet {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if s, ok := built[version]; ok {
		return s
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dist := filepath.Join(distDir, version)
	start := time.Now()
	out, err := exec.Command("make", "-C", repo, "--no-print-directory", "deb",
		"DEB_VERSION="+version, "DIST="+dist).CombinedOutput()
	if err != nil {
		t.Fatalf("make deb DEB_VERSION=%s: %v\n%s", version, err, tail(out, 4000))
	}
	t.Logf("make deb DEB_VERSION=%s took %s", version, time.Since(start).Round(100*time.Millisecond))
	s := debSet{
		version: version,
		sidecar: filepath.Join(dist, "maas-sidecar_"+version+"_amd64.deb"),
		agent:   filepath.Join(dist, "gpuaas-node-agent_"+version+"_amd64.deb"),
	}
	for _, p := range []string{s.sidecar, s.agent} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("make deb DEB_VERSION=%s did not write %s: %v", version, filepath.Base(p), err)
		}
	}
	built[version] = s
	return s
}
