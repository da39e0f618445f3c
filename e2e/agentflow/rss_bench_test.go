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

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// idlePolls is how many empty long polls the agent makes before we read
// its resident memory.
const idlePolls = 1000

// BenchmarkAgentIdleRSS builds gpuaas-node-agent, runs it as a child
// against the real agent API, lets it enroll and make 1,000 idle polls
// (each answered 204 at once), then reports the child's VmRSS, with the
// health watch off and on. With it on, the host root is a simulated host
// with eight NVIDIA GPUs and the fake nvidia-smi, the watch passes every
// second, and the polls go on until it has made at least 10 passes. Run
// with -benchtime=1x: one measurement, whatever b.N.
func BenchmarkAgentIdleRSS(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "gpuaas-node-agent")
	for name, pkg := range map[string]string{"gpuaas-node-agent": "agent/cmd/gpuaas-node-agent", "fakehost": "sim/cmd/fakehost", "fakegpu": "sim/cmd/fakegpu"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), "github.com/gpuaas/maas-sidecar/"+pkg).CombinedOutput(); err != nil {
			b.Fatalf("build %s: %v\n%s", name, err, out)
		}
	}
	b.Run("watch=off", func(b *testing.B) { idleRSS(b, bin, "", 0) })
	b.Run("watch=on", func(b *testing.B) { idleRSS(b, bin, dir, 10) })
}

// idleRSS runs the agent at bin until it has made idlePolls polls and,
// with tools set (the directory of fakehost and fakegpu), passes health
// reports; without, the watch is off.
func idleRSS(b *testing.B, bin, tools string, passes int64) {
	var polls, reports atomic.Int64
	count := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case strings.HasSuffix(r.URL.Path, "/tasks/wait"):
				polls.Add(1)
			case strings.HasSuffix(r.URL.Path, "/health"):
				reports.Add(1)
			}
			next.ServeHTTP(w, r)
		})
	}
	e := agentenv.New(b, agentenv.Options{Wrap: count, MaxWait: time.Millisecond})
	node := e.Node(lifecycle.NodeEnrolling)
	dir := b.TempDir()
	root := filepath.Join(dir, "root")
	health := map[string]any{"off": true}
	if tools != "" {
		out, err := exec.Command(filepath.Join(tools, "fakehost"), "provision", "--root", root, "--gpus", "nvidia:8", "--tools-dir", tools).CombinedOutput()
		if err != nil {
			b.Fatalf("provision: %v\n%s", err, out)
		}
		health = map[string]any{"interval": "1s"}
	}
	cfg := writeFixture(b, e, root, node)
	if err := os.MkdirAll(hostroot.Root(root).Path(cfg.Metrics.TextfileDir), 0o755); err != nil {
		b.Fatal(err) // node_exporter's directory, so the agent writes its metrics as on a host
	}
	raw, _ := yaml.Marshal(map[string]any{"api_url": cfg.APIURL, "node_id": cfg.NodeID, "signing_public_key": cfg.SigningPublicKey,
		"poll_timeout": "1ms", "retry_initial": "10ms", "retry_max": "100ms", "health": health})
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, raw, 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", cfgPath, "--root", root, "--state-dir", filepath.Join(dir, "state"), "--log-level", "error")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	b.ResetTimer()
	deadline := time.Now().Add(2 * time.Minute)
	for polls.Load() < idlePolls || reports.Load() < passes {
		if time.Now().After(deadline) {
			b.Fatalf("only %d polls and %d health reports in 2 minutes", polls.Load(), reports.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.StopTimer()
	if n, _ := e.Store.GetNode(e.Ctx, node); n.EnrolledAt == nil {
		b.Fatal("the agent polled without enrolling")
	}
	if _, err := os.Stat(filepath.Join(hostroot.Root(root).Path(cfg.Metrics.TextfileDir), "gpuaas_node_agent.prom")); err != nil {
		b.Fatalf("the agent wrote no metrics: %v", err)
	}
	st, err := procStatus(cmd.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st["VmRSS"]), "VmRSS-KiB")
	b.ReportMetric(float64(st["RssAnon"]), "RssAnon-KiB")
	b.ReportMetric(float64(st["RssFile"]), "RssFile-KiB")
	b.ReportMetric(float64(polls.Load()), "polls")
	b.ReportMetric(float64(reports.Load()), "health-reports")
}

// procStatus reads the memory lines (KiB) of /proc/<pid>/status:
// VmRSS, and its parts RssAnon (heap, stacks, runtime) and RssFile (the
// binary's pages that were touched).
func procStatus(pid int) (map[string]int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]int{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, _ := strings.Cut(s.Text(), ":")
		if k != "VmRSS" && !strings.HasPrefix(k, "Rss") {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		if err != nil {
			return nil, fmt.Errorf("/proc/%d/status: %s: %w", pid, k, err)
		}
		out[k] = n
	}
	if _, ok := out["VmRSS"]; !ok {
		return nil, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
	}
	return out, s.Err()
}
