//go:build e2e

package system

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// agentDeb is what the package server hands out as the agent package:
// the stub apt-get "installs" it, the real agent binary is started by
// the test on the host's root.
const agentDeb = "gpuaas-node-agent e2e package\n"

// TestManualBootstrap: a node created with `node create` (manual mode,
// seed 001 §2.1) gets a one-time command; run on a simulated host (its
// root a directory, apt-get, systemctl, dpkg and sudo stubs on PATH, the
// real curl and sh), it checks the agent API against the daemon's CA,
// fetches the script, downloads and checks the agent package and lays the
// agent's files down; a second fetch is refused; the real agent binary
// started on that root enrolls over mutual TLS and the node goes active
// with its onboarding completed. A second node, whose script is never
// run, times out into agent_enrollment_failure, and its ticket, expired
// by then, is refused.
func TestManualBootstrap(t *testing.T) {
	w := manualWorld(t)
	w.daemon.ok("", "policy", "set", w.site, "enrollment_timeout_seconds=30", "--reason", "e2e: quick enrollment bound")
	m1 := w.createManual("m01")
	m2 := w.createManual("m02", "--ttl", "30s")

	root := t.TempDir()
	// the host has what its SKU (h100.80g.8gpu) names: eight H100s, read
	// through the simulated tools
	gpus := fakehost.GPUs{Vendor: fakehost.VendorNVIDIA, Count: 8}
	if err := fakehost.Provision(root, fakehost.Spec{ToolsDir: bins.dir, GPUs: gpus}); err != nil {
		t.Fatal(err)
	}
	runCommand(t, m1.Command, root)
	if st, _ := os.ReadFile(filepath.Join(root, "var/lib/gpuaas-bootstrap/agent.status")); string(st) != "ok\n" {
		t.Fatalf("the bootstrap did not finish: agent.status %q", st)
	}
	if code, detail := fetch(t, m1); code != http.StatusConflict || !strings.Contains(detail, "already used") {
		t.Errorf("second fetch: %d %q, want 409 already used", code, detail)
	}
	again := t.TempDir()
	if out, err := execCommand(t, m1.Command, again); err == nil || !strings.Contains(out, "HTTP 409") ||
		!strings.Contains(out, "already used") {
		t.Errorf("the command pasted again: %v, output %q; want a failure saying HTTP 409, already used", err, out)
	}
	if _, err := os.Stat(filepath.Join(again, "calls.log")); err == nil {
		t.Error("the refused command installed something")
	}
	if n := w.manualNode(m1.NodeID); n.Node.Status != "enrolling" {
		t.Errorf("after the fetch the node is %s, want enrolling", n.Node.Status)
	}
	startProc(t, "gpuaas-node-agent m01", nil, bins.agent, "--root", root,
		"--config", filepath.Join(root, "etc/gpuaas-node-agent/config.yaml"), "--state-dir", filepath.Join(root, "var/lib/gpuaas-node-agent"))
	n := w.waitManual(m1.NodeID, 60*time.Second)
	if n.Node.Status != "active" || n.Node.EnrolledAt == "" || n.Run.Status != "completed" || n.Run.ID != m1.OnboardingID {
		t.Fatalf("m01: node %s (enrolled %q), onboarding %s %s; want active and completed", n.Node.Status,
			n.Node.EnrolledAt, n.Run.ID, n.Run.Status)
	}

	n = w.waitManual(m2.NodeID, 90*time.Second)
	if n.Node.Status != "bootstrap_issued" || n.Run.Status != "failed_manual_intervention" ||
		n.Run.FailureClass != "agent_enrollment_failure" || !strings.Contains(n.Run.Error, "node bootstrap "+m2.NodeID) {
		t.Fatalf("m02: node %s, onboarding %s/%s %q; want agent_enrollment_failure naming node bootstrap",
			n.Node.Status, n.Run.Status, n.Run.FailureClass, n.Run.Error)
	}
	if code, detail := fetch(t, m2); code != http.StatusConflict || !strings.Contains(detail, "expired") {
		t.Errorf("expired ticket: %d %q, want 409 expired", code, detail)
	}
	if len(w.sim.effects()) != 0 {
		t.Errorf("manual onboardings changed MAAS: %v", w.sim.effects())
	}
}

// manualWorld is a world whose agent packages a local server hands out
// (with their real sha256), so the bootstrap downloads and checks one.
func manualWorld(t *testing.T) *world {
	t.Helper()
	vaultBin := requireBinaries(t)
	pkgs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, agentDeb) }))
	t.Cleanup(pkgs.Close)
	w := &world{t: t, sim: startSim(t, simOptions{machines: 1, speed: 600}), daemon: newDaemon(t, startVault(t, vaultBin))}
	sum := sha256.Sum256([]byte(agentDeb))
	cfg, err := os.ReadFile(w.daemon.config)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(cfg), "http://127.0.0.1:9/gpuaas-node-agent_0.1.0_amd64.deb", pkgs.URL+"/gpuaas-node-agent_0.1.0_amd64.deb", 1)
	s = strings.Replace(s, "package_sha256: "+strings.Repeat("ab", 32), "package_sha256: "+hex.EncodeToString(sum[:]), 1)
	if err := os.WriteFile(w.daemon.config, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	w.daemon.start()
	w.createSite()
	return w
}

// manualTicket is `node create -o json`.
type manualTicket struct {
	NodeID       string `json:"node_id"`
	OnboardingID string `json:"onboarding_id"`
	URL          string
	Command      string
	CABundlePEM  string `json:"ca_bundle_pem"`
}

func (w *world) createManual(host string, extra ...string) manualTicket {
	w.t.Helper()
	var m manualTicket
	w.daemon.json(&m, append([]string{"node", "create", "--site", w.site, "--hostname", host,
		"--sku", "h100.80g.8gpu", "--reason", "e2e: pre-installed host"}, extra...)...)
	if m.NodeID == "" || m.Command == "" || m.URL == "" {
		w.t.Fatalf("node create %s: %+v", host, m)
	}
	return m
}

// runCommand runs the bootstrap command as an operator pastes it, on a
// host whose root is root: sudo, apt-get, systemctl and dpkg are stubs.
func runCommand(t *testing.T, command, root string) {
	t.Helper()
	out, err := execCommand(t, command, root)
	if err != nil {
		t.Fatalf("the bootstrap command failed: %v\n%s", err, out)
	}
	calls, _ := os.ReadFile(filepath.Join(root, "calls.log"))
	if !strings.Contains(string(calls), "apt-get install -y -o Dpkg::Options::=--force-confold "+root+"/var/lib/gpuaas-bootstrap/gpuaas-node-agent.deb") ||
		!strings.Contains(string(calls), "systemctl enable gpuaas-node-agent.service") {
		t.Fatalf("the package was not installed and enabled:\n%s\n%s", calls, out)
	}
}

// execCommand runs command with sh on the simulated host and returns its
// output and exit error.
func execCommand(t *testing.T, command, root string) (string, error) {
	t.Helper()
	bin := t.TempDir()
	stubs := map[string]string{
		"sudo":      `exec env GPUAAS_BOOTSTRAP_ROOT="$ROOT" "$@"`,
		"dpkg":      `echo amd64`,
		"apt-get":   `echo "apt-get $*" >>"$ROOT/calls.log"`,
		"systemctl": `echo "systemctl $*" >>"$ROOT/calls.log"`,
	}
	for name, body := range stubs {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("sh", "-c", command)
	cmd.Env = append(os.Environ(), "ROOT="+root, "PATH="+bin+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// fetch GETs the ticket's URL as the host would (the daemon's CA trusted)
// and returns the status and the problem's detail.
func fetch(t *testing.T, m manualTicket) (int, string) {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM([]byte(m.CABundlePEM))
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := c.Get(m.URL)
	if err != nil {
		t.Fatalf("fetch: %v", err)
	}
	defer resp.Body.Close()
	var p struct{ Detail string }
	_ = json.NewDecoder(resp.Body).Decode(&p)
	return resp.StatusCode, p.Detail
}

// manualView is `node get -o json`: the node and its current run.
type manualView struct {
	Node struct {
		Status     string
		EnrolledAt string `json:"enrolled_at"`
	}
	Run struct {
		ID, Status   string
		FailureClass string `json:"failure_class"`
		Error        string `json:"error_message"`
	} `json:"current_run"`
}

func (w *world) manualNode(id string) manualView {
	w.t.Helper()
	var v manualView
	w.daemon.json(&v, "node", "get", id)
	return v
}

// waitManual waits until the node's onboarding completed or failed.
func (w *world) waitManual(id string, within time.Duration) manualView {
	w.t.Helper()
	deadline := time.Now().Add(within)
	for {
		v := w.manualNode(id)
		if v.Run.Status == "completed" || strings.HasPrefix(v.Run.Status, "failed") || time.Now().After(deadline) {
			return v
		}
		time.Sleep(500 * time.Millisecond)
	}
}
