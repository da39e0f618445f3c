//go:build e2e

package system

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBackupMidBatchRestoredIntoNewDaemonResumesEveryRunWithoutDuplicates
// takes `maas-sidecar backup --out FILE` while the daemon runs a batch of
// 6 in waves of 2 (the command finds the store locked and fetches the
// daemon's online backup), stops that daemon, restores the file with
// `maas-sidecar restore` into a new state dir beside a copy of pki/ and
// admin.token, and starts a daemon there against the same simulator and
// agents. An agent handed its enrollment token after the backup is
// refused by the restored daemon and gets a new one as the operations
// guide says (node enrollment-token). Every run completes, every node is
// active, and the simulator's request log shows one deploy per machine
// and no other side effect.
func TestBackupMidBatchRestoredIntoNewDaemonResumesEveryRunWithoutDuplicates(t *testing.T) {
	w := newWorld(t, simOptions{machines: 6, speed: 600})
	w.daemon.ok("", "policy", "set", w.site, "batch_max_parallel=2", "--reason", "e2e: waves")
	hosts := hostnames(1, 2, 3, 4, 5, 6)
	batch, _ := w.onboard(hosts...)
	waitRunning(t, w, batch)

	snap := filepath.Join(t.TempDir(), "snap.db")
	out := w.daemon.ok("", "backup", "--out", snap, "--from", "bolt:"+w.daemon.stateDir)
	if !strings.Contains(out, "through the running daemon") {
		t.Errorf("backup of a running daemon's store: %s", out)
	}
	unfinished := 0
	for _, r := range w.runs(batch) {
		if r.Status != "completed" {
			unfinished++
		}
	}
	if unfinished == 0 {
		t.Fatal("the batch finished before the backup: the test proved nothing")
	}
	w.daemon.proc.stop(15 * time.Second)

	old := w.daemon.stateDir
	fresh := filepath.Join(t.TempDir(), "restored")
	restore := exec.Command(bins.daemon, "restore", "--in", snap, "--state-dir", fresh)
	if b, err := restore.CombinedOutput(); err != nil || !strings.Contains(string(b), "verified") {
		t.Fatalf("maas-sidecar restore: %v\n%s", err, b)
	}
	copyTree(t, filepath.Join(old, "pki"), filepath.Join(fresh, "pki"))
	copyTree(t, filepath.Join(old, "admin.token"), filepath.Join(fresh, "admin.token"))
	w.daemon.setConfig("state_dir: "+old, "state_dir: "+fresh)
	w.daemon.stateDir = fresh
	w.daemon.start()

	// An agent whose enrollment token the old daemon issued after the
	// backup is refused: the operator issues a new one (operations.md,
	// Backup and restore), once per such host.
	reissued := map[string]bool{}
	for deadline := time.Now().Add(150 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		done := 0
		for h, r := range w.runs(batch) {
			log, _ := os.ReadFile(filepath.Join(w.sim.bootDir, h+".log"))
			if r.Status == "completed" {
				done++
			} else if !reissued[h] && strings.Contains(string(log), "the daemon refused the enrollment token") {
				a := w.sim.agent(h)
				w.daemon.ok("", "node", "enrollment-token", r.NodeID, "--reason", "e2e: token issued after the backup", "--output", a.tokenPath)
				reissued[h] = true
			}
		}
		if done == len(hosts) {
			break
		}
	}
	t.Logf("%d unfinished at the backup; enrollment tokens issued again for %v", unfinished, reissued)
	if len(reissued) > unfinished {
		t.Errorf("%d agents refused, more than the %d runs unfinished at the backup", len(reissued), unfinished)
	}
	watch := w.daemon.cli("", "onboarding", "watch", "--batch", batch)
	if watch.code != 0 || !strings.Contains(watch.stdout, "completed 6") {
		t.Fatalf("the restored daemon's onboarding watch --batch: %s", watch)
	}
	runs, nodes := w.runs(batch), w.nodes()
	for _, h := range hosts {
		if r := runs[h]; r.Status != "completed" || nodes[h] != "active" {
			t.Errorf("%s: run %s at %s (%s), node %q; want completed and active", h, r.Status, r.Stage, r.Error, nodes[h])
		}
	}
	w.checkNoDuplicates(map[string]int{"deploy": 1})
	if eff := w.sim.effects(); len(eff) != len(hosts) {
		t.Errorf("%d machines saw side effects, want %d: %v", len(eff), len(hosts), eff)
	}
	w.daemon.proc.stop(15 * time.Second)
}

// copyTree copies a file, or a directory's files, keeping their modes.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(to, strings.TrimPrefix(p, from))
		if fi.IsDir() {
			return os.MkdirAll(dst, fi.Mode().Perm())
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("copy %s: %v", from, err)
	}
}
