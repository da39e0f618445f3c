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
// holds the simulator's answers to set_storage_layout, so a batch of 6
// stops mid-flight with each layout applied in MAAS and not journaled,
// takes `maas-sidecar backup --out FILE` while the daemon runs (the
// command finds the store locked and fetches the daemon's online backup),
// kills that daemon, copies pki/ (whose key verifies the backup's
// signature) and admin.token into a new state dir, restores the file
// there with `maas-sidecar restore`, and starts a
// daemon there against the same simulator: every run resumes and
// completes, every node is active, and the simulator's request log shows
// one deploy per machine and no other side effect.
func TestBackupMidBatchRestoredIntoNewDaemonResumesEveryRunWithoutDuplicates(t *testing.T) {
	w := newWorld(t, simOptions{machines: 6, speed: 600})
	const held = "set_storage_layout"
	w.sim.control("faults/ops", map[string]any{"op": held, "hold_ms": 120000})
	hosts := hostnames(1, 2, 3, 4, 5, 6)
	batch, _ := w.onboard(hosts...)
	for deadline := time.Now().Add(60 * time.Second); w.sim.holds().Held[held] < len(hosts); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d %s answers held within 60s", w.sim.holds().Held[held], held)
		}
	}

	snap := filepath.Join(t.TempDir(), "snap.db")
	out := w.daemon.ok("", "backup", "--out", snap, "--from", "bolt:"+w.daemon.stateDir)
	if !strings.Contains(out, "through the running daemon") {
		t.Errorf("backup of a running daemon's store: %s", out)
	}
	for h, r := range w.runs(batch) {
		if r.Status != "running" {
			t.Fatalf("%s is %s at the backup, want running (mid-flight)", h, r.Status)
		}
	}
	w.daemon.proc.kill() // the region controller is lost
	w.sim.control("faults/ops", map[string]any{"op": held})

	old := w.daemon.stateDir
	fresh := filepath.Join(t.TempDir(), "restored")
	// pki/ first: its task-signing key verifies the backup's signature
	copyTree(t, filepath.Join(old, "pki"), filepath.Join(fresh, "pki"))
	copyTree(t, filepath.Join(old, "admin.token"), filepath.Join(fresh, "admin.token"))
	restore := exec.Command(bins.daemon, "restore", "--in", snap, "--state-dir", fresh)
	if b, err := restore.CombinedOutput(); err != nil || !strings.Contains(string(b), "verified") {
		t.Fatalf("maas-sidecar restore: %v\n%s", err, b)
	}
	w.daemon.setConfig("state_dir: "+old, "state_dir: "+fresh)
	w.daemon.stateDir = fresh
	w.daemon.start()

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
