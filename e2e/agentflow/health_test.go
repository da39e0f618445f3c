package agentflow

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/metrics"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// healthRoute answers the agent's health reports on the real agent
// listener as the daemon's route is specified (wire.RouteHealth): only
// under the node's client certificate, for the node the certificate
// names. It hands each report to got and answers 503 to the first that
// carries an Xid 79, 204 to the others.
func healthRoute(got chan<- wire.HealthReport) func(http.Handler) http.Handler {
	var refused atomic.Bool
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, "/health") {
				next.ServeHTTP(w, r)
				return
			}
			if r.TLS == nil || len(r.TLS.VerifiedChains) == 0 {
				http.Error(w, `{"status":401}`, http.StatusUnauthorized)
				return
			}
			id, err := wire.NodeIDFromCert(r.TLS.PeerCertificates[0])
			var rep wire.HealthReport
			if err != nil || r.URL.Path != wire.HealthPath(id) || json.NewDecoder(r.Body).Decode(&rep) != nil {
				http.Error(w, `{"status":403}`, http.StatusForbidden)
				return
			}
			got <- rep
			if len(rep.Xids) > 0 && rep.Xids[0].Code == 79 && !refused.Swap(true) {
				http.Error(w, `{"status":503}`, http.StatusServiceUnavailable)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		})
	}
}

// TestHealthWatchSeesXid79: the real agent binary on a simulated host
// with eight NVIDIA GPUs, its watch every second, against the real agent
// listener. An Xid 79 injected on the running host (the simulator's
// residue route does the same) is in the next report, on GPU 0's bus,
// with 7 GPUs on the bus and 7 answering; the report answered 503 is
// followed by one that carries the Xid again, and the one after that no
// longer has it. The metrics file counts the Xid once.
func TestHealthWatchSeesXid79(t *testing.T) {
	reports := make(chan wire.HealthReport, 256)
	e := agentenv.New(t, agentenv.Options{Wrap: healthRoute(reports), MaxWait: time.Second})
	node := e.Node(lifecycle.NodeEnrolling)
	dir := t.TempDir()
	for name, pkg := range map[string]string{"gpuaas-node-agent": "agent/cmd/gpuaas-node-agent", "fakehost": "sim/cmd/fakehost", "fakegpu": "sim/cmd/fakegpu"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), "github.com/gpuaas/maas-sidecar/"+pkg).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", name, err, out)
		}
	}
	root := filepath.Join(dir, "root")
	if out, err := exec.Command(filepath.Join(dir, "fakehost"), "provision", "--root", root, "--gpus", "nvidia:8", "--tools-dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("provision: %v\n%s", err, out)
	}
	cfg := writeFixture(t, e, root, node)
	raw, _ := yaml.Marshal(map[string]any{"api_url": cfg.APIURL, "node_id": cfg.NodeID, "signing_public_key": cfg.SigningPublicKey,
		"retry_initial": "10ms", "retry_max": "100ms", "health": map[string]any{"interval": "1s"}})
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(dir, "gpuaas-node-agent"), "--config", cfgPath, "--root", root, "--state-dir", filepath.Join(dir, "state"), "--log-level", "warn")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	next := func(what string, ok func(wire.HealthReport) bool) wire.HealthReport {
		t.Helper()
		deadline := time.After(90 * time.Second)
		for {
			select {
			case r := <-reports:
				if ok(r) {
					return r
				}
			case <-deadline:
				t.Fatalf("no report %s in 90s", what)
			}
		}
	}
	next("with 8 GPUs", func(r wire.HealthReport) bool { return r.GPUCount == 8 && len(r.GPUs) == 8 && r.BootID != "" })
	if _, err := fakehost.Inject(root, fakehost.Residue{Xid: 79}); err != nil {
		t.Fatal(err)
	}
	first := next("with the Xid 79", func(r wire.HealthReport) bool { return len(r.Xids) > 0 })
	if x := first.Xids[0]; len(first.Xids) != 1 || x.Code != 79 || x.Class != "reboot" || x.BusID != "00000000:18:00.0" ||
		first.GPUCount != 7 || len(first.GPUs) != 7 || len(first.Unreadable) != 0 {
		t.Errorf("first report after the fault: Xids %+v, %d on the bus, %d answering, unreadable %v; want one Xid 79 (reboot) on "+
			"00000000:18:00.0, 7, 7, none", first.Xids, first.GPUCount, len(first.GPUs), first.Unreadable)
	}
	again := <-reports
	if len(again.Xids) != 1 || again.Xids[0].Code != 79 || again.Seq <= first.Seq {
		t.Errorf("report after the refused one: Xids %+v, seq %d after %d; want the Xid 79 carried, a higher seq", again.Xids, again.Seq, first.Seq)
	}
	if after := <-reports; len(after.Xids) != 0 {
		t.Errorf("report after the accepted one: Xids %+v; want none", after.Xids)
	}
	b, err := os.ReadFile(filepath.Join(hostroot.Root(root).Path(cfg.Metrics.TextfileDir), metrics.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`gpuaas_node_agent_gpu_xid_events_total{class="reboot",code="79"} 1`, "gpuaas_node_agent_gpus_on_bus 7",
		"gpuaas_node_agent_gpus_answering 7", `gpuaas_node_agent_health_reports_total{result="refused"}`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics file lacks %q:\n%s", want, b)
		}
	}
}
