//go:build e2e

package system

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/config"
	"github.com/gpuaas/maas-sidecar/agent/metrics"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// TestAgentBinaryWritesItsMetrics: the real agent binary runs on a host
// without node_exporter's textfile directory (it runs its tasks anyway),
// and once the directory appears it writes gpuaas_node_agent.prom there,
// world-readable, with its enrollment and the task it ran, and the file
// passes promtool check metrics.
func TestAgentBinaryWritesItsMetrics(t *testing.T) {
	if bins.err != nil {
		t.Fatalf("building the binaries under test: %v", bins.err)
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install the Debian prometheus package (make test-deps)")
	}
	e := agentenv.New(t, agentenv.Options{})
	node := e.Node(lifecycle.NodeActive)
	root := bootAgentBinary(t, e, node)
	first := waitTask(t, e, e.Enqueue(node, lifecycle.TaskRevokeUser, wire.UsersPayload{}, 5*time.Minute).ID)
	if first.Result == nil || !first.Result.Success {
		t.Fatalf("without a textfile directory the task did not succeed: %+v", first.Result)
	}
	dir := filepath.Join(root, config.DefaultTextfileDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	waitTask(t, e, e.Enqueue(node, lifecycle.TaskRevokeUser, wire.UsersPayload{}, 5*time.Minute).ID)
	path := filepath.Join(dir, metrics.FileName)
	want := []string{`gpuaas_node_agent_tasks_total{result="success",type="allocation.revoke_user"} 2`,
		"gpuaas_node_agent_enrolled 1"}
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		if containsAll(string(b), want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not show %q after 30s:\n%s", path, want, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("%s: %v, %v; want mode 0644", path, fi, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = f
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
