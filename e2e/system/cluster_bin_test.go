//go:build e2e && dqlite

package system

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// dqliteDaemon is the daemon built with the dqlite store (cgo, tags
// dqlite,libsqlite3), built once when a cluster test first needs it.
var dqliteDaemon struct {
	once sync.Once
	path string
	err  error
}

// requireDqliteDaemon builds the dqlite daemon into bins.dir.
func requireDqliteDaemon(t *testing.T) string {
	t.Helper()
	dqliteDaemon.once.Do(func() {
		dqliteDaemon.path = filepath.Join(bins.dir, "e2e-daemon-dqlite")
		cmd := exec.Command("go", "build", "-tags", "dqlite,libsqlite3", "-o", dqliteDaemon.path, "./daemon/cmd/maas-sidecar")
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			dqliteDaemon.err = fmt.Errorf("go build -tags dqlite,libsqlite3 (needs libdqlite-dev and libraft-dev: make test-deps): %v\n%s", err, out)
		}
	})
	if dqliteDaemon.err != nil {
		t.Fatal(dqliteDaemon.err)
	}
	return dqliteDaemon.path
}
