//go:build e2e

package system

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// daemon is `maas-sidecar serve` as a process. Its admin and agent ports
// are chosen once so a restarted daemon is where the CLI and the booted
// agents expect it.
type daemon struct {
	t                    testing.TB
	proc                 *proc
	config, stateDir     string
	adminAddr, agentAddr string
	incarnations         int
	bin                  string // the daemon binary; "" is bins.daemon
	name                 string // the process's name in failures; "" is maas-sidecar serve
	vault                vault  // the Vault it uses
}

// newDaemon writes the config file: Vault with a token file, the agent
// API on loopback with the address cloud-init hands the agents, and
// plain-http agent packages with their sha256, amd64 in the older keys and
// arm64 in agent.packages (nothing downloads them: the simulated hosts
// only lay out write_files), and the connectivity check off (the
// simulated hosts listen on nothing).
func newDaemon(t testing.TB, v vault) *daemon {
	t.Helper()
	dir := t.TempDir()
	d := &daemon{t: t, config: filepath.Join(dir, "config.yaml"), stateDir: filepath.Join(dir, "state"),
		adminAddr: freeport.Addr(t), agentAddr: freeport.Addr(t), vault: v}
	cfg := fmt.Sprintf(`admin_listen: %s
state_dir: %s
log_level: debug
shutdown_timeout: 5s
poll_interval: 100ms
agent:
  listen: %s
  url: https://%s
  cert_hosts: [127.0.0.1]
  package_url: http://127.0.0.1:9/gpuaas-node-agent_0.1.0_amd64.deb
  package_sha256: %s
  packages:
    arm64: {url: "http://127.0.0.1:9/gpuaas-node-agent_0.1.0_arm64.deb", sha256: %s}
connectivity:
  port: 0
vault:
  address: %s
  token_file: %s
`, d.adminAddr, d.stateDir, d.agentAddr, d.agentAddr, strings.Repeat("ab", 32), strings.Repeat("cd", 32), v.addr, v.tokenFile)
	if err := os.WriteFile(d.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return d
}

// start runs a new incarnation and waits until it is ready.
func (d *daemon) start() {
	d.t.Helper()
	d.incarnations++
	bin, name := d.bin, d.name
	if bin == "" {
		bin = bins.daemon
	}
	if name == "" {
		name = "maas-sidecar serve"
	}
	d.proc = startProc(d.t, fmt.Sprintf("%s #%d", name, d.incarnations), nil, bin, "serve", "--config", d.config)
	d.proc.waitLine(30*time.Second, `"admin listener bound"`, d.adminAddr)
	d.proc.waitLine(30*time.Second, `"agent listener bound"`, d.agentAddr)
	d.proc.waitLine(30*time.Second, `"maas-sidecar ready"`)
}

// url is an admin listener URL.
func (d *daemon) url(path string) string { return "http://" + d.adminAddr + path }

// token is the first admin token the daemon wrote in its state dir.
func (d *daemon) token() string {
	d.t.Helper()
	b, err := os.ReadFile(filepath.Join(d.stateDir, "admin.token"))
	if err != nil {
		d.t.Fatalf("admin token: %v", err)
	}
	return strings.TrimSpace(string(b))
}
