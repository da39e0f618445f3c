//go:build integration

package installtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// proc is a process whose root directory is inside a test root.
type proc struct {
	pid  int
	comm string
}

// rootedProcs lists the processes whose root directory is dir: what a
// maintainer script started, or what a test started and still runs.
func rootedProcs(dir string) []proc {
	ents, _ := os.ReadDir("/proc")
	var out []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		link, err := os.Readlink(filepath.Join("/proc", e.Name(), "root"))
		if err != nil || (link != dir && !strings.HasPrefix(link, dir+"/")) {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		out = append(out, proc{pid: pid, comm: strings.TrimSpace(string(comm))})
	}
	return out
}

// assertNothingRuns fails the test if any process runs inside the root:
// with policy-rc.d answering 101 no maintainer script may start a service.
func (r *root) assertNothingRuns(step string) {
	r.t.Helper()
	if ps := rootedProcs(r.dir); len(ps) > 0 {
		r.t.Errorf("%s: processes running inside the root (a service was started?): %v", step, ps)
	}
}

// killRooted kills every process inside dir and waits briefly for them
// to go, so that the mounts can be released.
func killRooted(t *testing.T, dir string) {
	for i := 0; i < 50; i++ {
		ps := rootedProcs(dir)
		if len(ps) == 0 {
			return
		}
		for _, p := range ps {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("cleanup: processes still running inside %s: %v", dir, rootedProcs(dir))
}
