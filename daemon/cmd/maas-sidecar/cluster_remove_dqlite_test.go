//go:build dqlite && integration

package main_test

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// cli runs the binary's CLI against m with m's token; it returns the
// exit code and stdout, stderr together.
func (m *member) cli(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(binary, append(args, "--addr", m.addr, "--token-file", filepath.Join(m.state, "admin.token"))...)
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// waitMetric polls m's /metrics until it has line, for up to 20 s.
func (m *member) waitMetric(t *testing.T, line string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var body string
	for time.Now().Before(deadline) {
		if _, b, err := get(m.addr, "/metrics"); err == nil {
			if body = b; strings.Contains(body, line+"\n") {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s's /metrics never showed %q; store metrics:\n%s", m.name, line, storeLines(body))
}

func storeLines(body string) string {
	var out []string
	for l := range strings.Lines(body) {
		if strings.HasPrefix(l, "maas_sidecar_store_") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// TestClusterRemoveAndRaftMetrics: three serve processes on one dqlite
// store report a quorum and three voters in their Raft metrics, and
// cluster status shows every member answering. A member stopped for
// good is removed with `cluster remove ADDRESS` through another daemon;
// the daemon's own member is refused. Afterwards the cluster has two
// members, in status and in the metrics.
func TestClusterRemoveAndRaftMetrics(t *testing.T) {
	root := t.TempDir()
	raft := []string{freeport.Addr(t), freeport.Addr(t), freeport.Addr(t)}
	a := startMember(t, "region-a", filepath.Join(root, "a"), raft[0])
	a.waitReady()
	ms := []*member{a}
	for i, name := range []string{"region-b", "region-c"} {
		state := filepath.Join(root, name)
		sharePKI(t, a.state, state, sharedPKIFiles...)
		m := startMember(t, name, state, raft[i+1], raft[0])
		m.waitReady()
		ms = append(ms, m)
	}
	b, c := ms[1], ms[2]
	a.waitMetric(t, "maas_sidecar_store_quorum 1")
	a.waitMetric(t, `maas_sidecar_store_cluster_members{role="voter"} 3`)
	for _, m := range ms {
		m.waitMetric(t, "maas_sidecar_store_quorum 1")
	}

	code, out := b.cli(t, "cluster", "status", "-o", "json")
	var st struct {
		Cluster struct {
			Members []struct {
				Address   string
				Reachable bool
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
		t.Fatalf("cluster status: exit %d, %v\n%s", code, err, out)
	}
	for _, m := range st.Cluster.Members {
		if !m.Reachable {
			t.Errorf("member %s does not answer while all three run: %s", m.Address, out)
		}
	}

	if code, out := b.cli(t, "cluster", "remove", raft[1], "--reason", "test"); code != 5 || !strings.Contains(out, "this daemon's own") {
		t.Errorf("removing the daemon's own member: exit %d\n%s\nwant 5 and why", code, out)
	}
	stop(t, c.proc)
	if code, out := b.cli(t, "cluster", "remove", raft[2], "--reason", "region controller retired"); code != 0 {
		t.Fatalf("cluster remove %s: exit %d\n%s%s", raft[2], code, out, c.log())
	}
	code, out = a.cli(t, "cluster", "status")
	if code != 0 || strings.Contains(out, raft[2]) || !strings.Contains(out, raft[0]) || !strings.Contains(out, raft[1]) {
		t.Errorf("cluster status after the removal: exit %d\n%s\nwant %s and %s only", code, out, raft[0], raft[1])
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, body, _ := get(a.addr, "/metrics")
		if n := membersIn(body); n == 2 {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("members in region-a's metrics: %d, want 2\n%s", n, storeLines(body))
		}
		time.Sleep(200 * time.Millisecond)
	}
	stop(t, b.proc)
	stop(t, a.proc)
}

// membersIn sums maas_sidecar_store_cluster_members over its roles.
func membersIn(body string) int {
	n := 0
	for l := range strings.Lines(body) {
		if strings.HasPrefix(l, "maas_sidecar_store_cluster_members{") {
			var v int
			f := strings.Fields(l)
			if _, err := fmt.Sscan(f[len(f)-1], &v); err == nil {
				n += v
			}
		}
	}
	return n
}
