//go:build e2e && dqlite

package system

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// dqliteDaemon is the daemon with the dqlite store exactly as the
// package ships it: built once, when a cluster test first needs it, by
// `make deb-daemon` (a static PIE carrying dqlite, raft, libuv, lz4,
// SQLite and glibc; docs/packaging.md).
var dqliteDaemon struct {
	once sync.Once
	path string
	err  error
}

// requireDqliteDaemon builds the packaged daemon into bins.dir.
func requireDqliteDaemon(t *testing.T) string {
	t.Helper()
	dqliteDaemon.once.Do(func() {
		dqliteDaemon.path, dqliteDaemon.err = buildPackagedDaemon(bins.dir)
	})
	if dqliteDaemon.err != nil {
		t.Fatal(dqliteDaemon.err)
	}
	return dqliteDaemon.path
}

// buildPackagedDaemon runs make deb-daemon with its outputs under dir,
// checks the binary is static, and moves it to a neutral name in dir.
func buildPackagedDaemon(dir string) (string, error) {
	out := filepath.Join(dir, "deb")
	cmd := exec.Command("make", "--no-print-directory", "deb-daemon", "DEB_BUILD="+out)
	cmd.Dir = filepath.Join("..", "..")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("make deb-daemon (needs the -dev packages of make test-deps): %v\n%s", err, b)
	}
	built := filepath.Join(out, "amd64", "maas-sidecar")
	f, err := elf.Open(built)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		return "", fmt.Errorf("make deb-daemon built a daemon that needs %v, want the static one the package ships", libs)
	}
	path := filepath.Join(dir, "e2e-daemon-dqlite")
	return path, os.Rename(built, path)
}
