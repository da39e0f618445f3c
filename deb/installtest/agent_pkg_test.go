//go:build integration

package installtest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/cloudinit"
)

// TestAgentPackageLifecycle installs, removes and purges the agent
// package with apt in a root of each Debian release where cloud-init
// already wrote the agent's config: installed and enabled, never
// started, and its static binary runs; remove keeps the config; purge
// leaves nothing of the agent.
func TestAgentPackageLifecycle(t *testing.T) {
	t.Parallel()
	for _, rel := range releases {
		t.Run(rel.name, func(t *testing.T) {
			t.Parallel()
			agentLifecycle(t, rel.suite)
		})
	}
}

// agentLifecycle is TestAgentPackageLifecycle in a root of suite.
func agentLifecycle(t *testing.T, suite string) {
	deb := debs(t, newVersion).agent
	have := maintScripts(t, deb)
	r := newRootOn(t, suite)
	const config = "api_url: https://sidecar.example.net:5291\nnode_id: node-0001\n"
	r.write(cloudinit.AgentConfigPath, config, 0o644)
	wants := "/etc/systemd/system/multi-user.target.wants/" + agentUnit
	ran := map[string]bool{}
	step := func(name string, got []string, want ...string) {
		t.Helper()
		if d := cmp.Diff(expectScripts(have, want...), got); d != "" {
			t.Errorf("%s: maintainer scripts run (-want +got):\n%s", name, d)
		}
		for _, s := range got {
			ran[strings.Fields(s)[0]] = true
		}
		r.assertNothingRuns(name)
	}

	step("install", r.aptInstallFile(agentPkg, deb), "preinst install", "postinst configure")
	if got := r.status(agentPkg); got != "install ok installed "+newVersion {
		t.Errorf("dpkg status = %q, want installed %s", got, newVersion)
	}
	for _, p := range []string{agentBin, "/lib/systemd/system/" + agentUnit, wants} {
		if !r.exists(p) {
			t.Errorf("%s missing after install", p)
		}
	}
	if out := r.run(agentBin, "--version"); !strings.Contains(out, newVersion) {
		t.Errorf("%s --version in the root printed %q, want %s", agentBin, out, newVersion)
	}

	step("remove", r.apt(agentPkg, "remove", agentPkg), "prerm remove", "postrm remove")
	if r.exists(agentBin) {
		t.Errorf("%s still there after remove", agentBin)
	}
	if !r.exists(cloudinit.AgentConfigPath) || r.read(cloudinit.AgentConfigPath) != config {
		t.Errorf("remove did not keep the config cloud-init wrote")
	}

	step("purge", r.apt(agentPkg, "purge", agentPkg), "postrm purge")
	if got := r.status(agentPkg); got != "" {
		t.Errorf("dpkg status after purge = %q, want unknown", got)
	}
	for _, p := range []string{"/etc/gpuaas-node-agent", "/var/lib/gpuaas-node-agent", wants} {
		if r.exists(p) {
			t.Errorf("%s still there after purge", p)
		}
	}
	for s := range have {
		if !ran[s] {
			t.Errorf("the package's %s script never ran", s)
		}
	}
}
