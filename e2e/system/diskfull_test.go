//go:build e2e

package system

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/store/bolt"
)

// TestFullStateDirAnswers503AndParksRunsThenResumesUncorrupted puts the
// daemon's state dir on a small tmpfs, fills it while a batch of 6 runs:
// a write through the admin API answers 503 problem+json, code no_space,
// with Retry-After, and the daemon logs a line naming the cause and the
// store file; no run fails meanwhile. When the filler is removed, every
// run completes with one deploy per machine in the simulator's request
// log, and the stopped daemon's store passes bbolt's consistency check.
func TestFullStateDirAnswers503AndParksRunsThenResumesUncorrupted(t *testing.T) {
	vaultBin := requireBinaries(t)
	w := &world{t: t, sim: startSim(t, simOptions{machines: 6, speed: 600}), daemon: newDaemon(t, startVault(t, vaultBin))}
	mountTmpfs(t, w.daemon.stateDir, "16m")
	w.daemon.start()
	w.createSite()
	batch, _ := w.onboard(hostnames(1, 2, 3, 4, 5, 6)...)
	waitRunning(t, w, batch)
	filler := fill(t, w.daemon.stateDir)
	store := filepath.Join(w.daemon.stateDir, bolt.FileName)

	code, h, body := writeUntilRefused(t, w.daemon, 30*time.Second)
	var p struct{ Code, Detail string }
	_ = json.Unmarshal(body, &p)
	if code != http.StatusServiceUnavailable || h.Get("Content-Type") != "application/problem+json" ||
		h.Get("Retry-After") == "" || p.Code != "no_space" {
		t.Fatalf("a write on a full disk: %d %s Retry-After %q, body %s; want 503 problem+json no_space with Retry-After",
			code, h.Get("Content-Type"), h.Get("Retry-After"), body)
	}
	w.daemon.proc.waitLine(10*time.Second, "no space left on device", store)
	time.Sleep(3 * time.Second) // the runner meets the full disk too
	for host, r := range w.runs(batch) {
		if r.Status == "failed" || r.Status == "compensating" {
			t.Errorf("%s failed while the disk was full: %s at %s (%s, %s)", host, r.Status, r.Stage, r.FailureClass, r.Error)
		}
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	watch := w.daemon.cli("", "onboarding", "watch", "--batch", batch)
	if watch.code != 0 || !strings.Contains(watch.stdout, "completed 6") {
		t.Fatalf("after space returned, onboarding watch --batch: %s", watch)
	}
	w.checkNoDuplicates(map[string]int{"deploy": 1})
	if eff := w.sim.effects(); len(eff) != 6 {
		t.Errorf("%d machines saw side effects, want 6: %v", len(eff), eff)
	}
	w.daemon.proc.stop(15 * time.Second)
	checkStore(t, store)
}

// mountTmpfs mounts a tmpfs of size on dir for the test (root only: the
// test fails, never skips, when the mount is refused).
func mountTmpfs(t *testing.T, dir, size string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Fatalf("mount -t tmpfs -o size=%s on %s: %v (this test needs root, or CAP_SYS_ADMIN, to fill a filesystem of its own)", size, dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			_ = syscall.Unmount(dir, syscall.MNT_DETACH)
		}
	})
}

// fill writes a file in dir until its filesystem has no space left and
// returns its path.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling %s: %v", dir, err)
			}
			break
		}
	}
	// The last pages a partial write may have left.
	for _, n := range []int{4096, 512, 1} {
		for {
			if _, err := f.Write(chunk[:n]); err != nil {
				break
			}
		}
	}
	return path
}

// writeUntilRefused creates tokens (each a token record and an audit
// entry, so the store needs new pages before long) until a write fails,
// and returns that answer.
func writeUntilRefused(t *testing.T, d *daemon, within time.Duration) (int, http.Header, []byte) {
	t.Helper()
	deadline := time.Now().Add(within)
	for i := 0; time.Now().Before(deadline); i++ {
		code, h, body := d.send(http.MethodPost, "/api/v1/admin/tokens", "application/json",
			fmt.Appendf(nil, `{"name": "fill-%d-%s", "role": "viewer"}`, i, strings.Repeat("x", 50)))
		if code != http.StatusCreated && code != http.StatusOK {
			return code, h, body
		}
	}
	t.Fatalf("every write succeeded for %v on a full filesystem", within)
	return 0, nil, nil
}

// waitRunning waits until one of the batch's runs is past pending.
func waitRunning(t *testing.T, w *world, batch string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if n, _ := w.runningRuns(batch); n > 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no run of the batch started within 60s")
}

// checkStore opens a stopped daemon's store file, which reads every page
// (bolt.Open verifies the file), and runs bbolt's consistency check.
func checkStore(t *testing.T, path string) {
	t.Helper()
	s, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatalf("the store after the disk was full: %v", err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatalf("bbolt check of %s: %v", path, err)
	}
}
