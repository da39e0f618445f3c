//go:build integration

package installtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ownerFile names the process that made a test root, so that a later run
// can tell a root left by a killed run (a timeout panic or Ctrl-C skips
// the cleanups) from one in use by a concurrent run.
const ownerFile = "owner.pid"

// markOwner records this process as the owner of a root's parent dir.
func markOwner(parent string) error {
	return os.WriteFile(filepath.Join(parent, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600)
}

// sweepStale unmounts and deletes the roots of test processes that are
// gone, and returns what it could not clean.
func sweepStale() error {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "installtest-*"))
	var failed []string
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue // not a root, or still being set up
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid == os.Getpid() || syscall.Kill(pid, 0) == nil {
			continue
		}
		dir, err = filepath.EvalSymlinks(dir)
		if err != nil {
			continue
		}
		if err := unmountAll(dir); err != nil {
			failed = append(failed, err.Error())
			continue
		}
		if err := removeRoot(dir); err != nil {
			failed = append(failed, err.Error())
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("stale test roots: %s", strings.Join(failed, "; "))
	}
	return nil
}
