//go:build integration

package installtest

import (
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/cloudinit"
)

const (
	agentPkg    = "gpuaas-node-agent"
	agentBin    = "/usr/bin/gpuaas-node-agent"
	agentUnit   = "gpuaas-node-agent.service"
	agentStatus = cloudinit.BootstrapStateDir + "/agent.status"
)

// TestAgentCloudInit runs the agent part of the user-data the product
// renders, as cloud-init would (write_files, then runcmd), in a fresh
// Debian root against a loopback HTTP server holding the agent package:
// pinned by the right sha256 the package installs, keeps the config
// cloud-init wrote, is enabled and not started; with a wrong sha256 it
// is refused before apt sees it.
func TestAgentCloudInit(t *testing.T) {
	t.Parallel()
	deb := debs(t, newVersion).agent
	t.Run("pinned sha256 installs", func(t *testing.T) {
		t.Parallel()
		r, srv := newRoot(t), serveFile(t, deb, "gpuaas-node-agent.deb")
		part := renderAgentPart(t, srv.URL, srv.SHA256)
		if out, err := part.apply(r); err != nil {
			t.Fatalf("install script: %v\n%s", err, tail([]byte(out), 4000))
		}
		if got := r.read(agentStatus); got != "ok\n" {
			t.Errorf("agent.status = %q, want ok", got)
		}
		if got := r.status(agentPkg); got != "install ok installed "+newVersion {
			t.Errorf("dpkg status = %q, want installed %s", got, newVersion)
		}
		if got, want := r.read(cloudinit.AgentConfigPath), part.file(t, cloudinit.AgentConfigPath); got != want {
			t.Errorf("%s after install:\n%s\nwant what cloud-init wrote:\n%s", cloudinit.AgentConfigPath, got, want)
		}
		if out, _ := r.try("systemctl", "is-enabled", agentUnit); strings.TrimSpace(out) != "enabled" {
			t.Errorf("systemctl is-enabled %s = %q, want enabled", agentUnit, out)
		}
		r.assertNothingRuns("cloud-init agent install")
		if srv.hits.Load() != 1 {
			t.Errorf("package fetched %d times, want 1", srv.hits.Load())
		}
	})
	t.Run("sha256 mismatch refuses", func(t *testing.T) {
		t.Parallel()
		r, srv := newRoot(t), serveFile(t, deb, "gpuaas-node-agent.deb")
		out, err := renderAgentPart(t, srv.URL, flipDigest(srv.SHA256)).apply(r)
		if err == nil {
			t.Fatalf("install script succeeded with a wrong sha256:\n%s", out)
		}
		if got := r.read(agentStatus); got != "failed step=verify\n" {
			t.Errorf("agent.status = %q, want failed step=verify", got)
		}
		if got := r.status(agentPkg); got != "" {
			t.Errorf("dpkg status = %q, want the package unknown", got)
		}
		for _, p := range []string{agentBin, "/lib/systemd/system/" + agentUnit, cloudinit.BootstrapStateDir + "/gpuaas-node-agent.deb"} {
			if r.exists(p) {
				t.Errorf("%s exists after a refused install", p)
			}
		}
		if srv.hits.Load() != 1 {
			t.Errorf("package fetched %d times, want 1", srv.hits.Load())
		}
		r.assertNothingRuns("refused agent install")
	})
}

// flipDigest returns a different valid sha256 hex digest.
func flipDigest(sum string) string {
	last := "0"
	if strings.HasSuffix(sum, "0") {
		last = "1"
	}
	return sum[:len(sum)-1] + last
}

// file is the content the part writes to path.
func (p agentPart) file(t *testing.T, path string) string {
	t.Helper()
	for _, f := range p.WriteFiles {
		if f.Path == path {
			return f.Content
		}
	}
	t.Fatalf("user-data writes no %s", path)
	return ""
}
