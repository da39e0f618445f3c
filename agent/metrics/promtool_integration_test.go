//go:build integration

package metrics

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestWrittenFilePassesPromtool writes the file with every series set,
// as an agent that enrolled, ran, was refused and made a health watch pass
// with every reading would, and lints it with
// promtool check metrics (rc 3 on lint problems), the check node_exporter
// users run on textfile output. promtool comes from Debian's prometheus
// package (hack/apt-packages.txt); without it this test fails.
func TestWrittenFilePassesPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install the Debian prometheus package (make test-deps)")
	}
	dir := t.TempDir()
	m := New("1.0.0", []string{"node.drain", "node.heartbeat_check"})
	m.Enrolled(t0)
	m.Contacted(t0.Add(time.Second))
	m.TaskDone("node.drain", ResultSuccess)
	m.TaskDone("unknown", ResultUnsupported)
	m.Refused(RefusedCertificate)
	m.Refused(RefusedEnrollmentToken)
	r, fresh := healthReport()
	m.HealthPass(r, fresh)
	m.HealthReported(true, t0.Add(time.Second))
	if err := m.WriteFile(dir, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = f
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
	if len(readFile(t, dir)) != 25 {
		t.Errorf("the file holds %d metric families, want 25 (7 and the health watch's 18)", len(readFile(t, dir)))
	}
}
