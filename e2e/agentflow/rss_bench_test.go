package agentflow

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// idlePolls is how many empty long polls the agent makes before we read
// its resident memory.
const idlePolls = 1000

// BenchmarkAgentIdleRSS builds gpuaas-node-agent, runs it as a child
// against the real agent API, lets it enroll and make 1,000 idle polls
// (each answered 204 at once), then reports the child's VmRSS. Run with
// -benchtime=1x: one measurement, whatever b.N.
func BenchmarkAgentIdleRSS(b *testing.B) {
	var polls atomic.Int64
	count := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/tasks/wait") {
				polls.Add(1)
			}
			next.ServeHTTP(w, r)
		})
	}
	e := agentenv.New(b, agentenv.Options{Wrap: count, MaxWait: time.Millisecond})
	node := e.Node(lifecycle.NodeEnrolling)
	dir := b.TempDir()
	bin := filepath.Join(dir, "gpuaas-node-agent")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/gpuaas/maas-sidecar/agent/cmd/gpuaas-node-agent").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	root := filepath.Join(dir, "root")
	cfg := writeFixture(b, e, root, node)
	cfg.PollTimeout = time.Millisecond
	raw, _ := yaml.Marshal(map[string]any{"api_url": cfg.APIURL, "node_id": cfg.NodeID, "signing_public_key": cfg.SigningPublicKey,
		"poll_timeout": "1ms", "retry_initial": "10ms", "retry_max": "100ms"})
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, raw, 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", cfgPath, "--root", root, "--state-dir", filepath.Join(dir, "state"), "--log-level", "warn")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	b.ResetTimer()
	deadline := time.Now().Add(2 * time.Minute)
	for polls.Load() < idlePolls {
		if time.Now().After(deadline) {
			b.Fatalf("only %d polls in 2 minutes", polls.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.StopTimer()
	if n, _ := e.Store.GetNode(e.Ctx, node); n.EnrolledAt == nil {
		b.Fatal("the agent polled without enrolling")
	}
	rss, err := vmRSS(cmd.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(rss), "VmRSS-KiB")
	b.ReportMetric(float64(polls.Load()), "polls")
}

// vmRSS reads the VmRSS line (KiB) of /proc/<pid>/status.
func vmRSS(pid int) (int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}
