//go:build integration

package installtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/deb/debtest"
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
// `make deb` (once per version per run, through debtest.Build: each
// build has its own DIST and binaries, so it never races another test
// package's build) and returns their paths.
func debs(t *testing.T, version string) debSet {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if s, ok := built[version]; ok {
		return s
	}
	start := time.Now()
	src := ""
	if version == oldVersion {
		src = oldReleaseTree(t)
	}
	p := debtest.BuildFrom(t, filepath.Join(distDir, version), version, src)
	t.Logf("make deb DEB_VERSION=%s took %s", version, time.Since(start).Round(100*time.Millisecond))
	s := debSet{version: version, sidecar: p.Daemon, agent: p.AgentAMD64}
	for _, f := range []string{s.sidecar, s.agent} {
		if !strings.Contains(filepath.Base(f), "_"+version+"_") {
			t.Fatalf("make deb DEB_VERSION=%s wrote %s", version, f)
		}
	}
	built[version] = s
	return s
}
