//go:build e2e

package system

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// TestDecomSoftResetEndsClean: a soft reset of an active node a tenant
// left a user, a process, a Weka mount, GPU memory held by a compute
// process and scratch files on ends completed with the node active, the
// host clean, a clean certificate in `decommission get -o json` (the
// validation passed, every GPU's memory before and after) and not one
// side effect on the machine in MAAS.
func TestDecomSoftResetEndsClean(t *testing.T) {
	w := newWorld(t, simOptions{machines: 1, speed: 600, gpus: "nvidia:8"})
	host := hostnames(1)[0]
	node := w.decomActive(host)[host]
	mark := w.sim.decomMark()
	in := w.sim.residue(host, fakehost.Residue{User: "tenant1", Process: true, WekaMount: "/mnt/weka",
		GPUMemoryMiB: 4096, ScratchFile: true})
	if r := w.sim.hostResidue(host); r.Clean || len(r.GPUs) != 1 {
		t.Fatal("the injected residue is not reported: the test would prove nothing")
	}

	id := w.decomStart(node, "soft_reset", "--storage-cleanup", "all")
	if r := w.decomWatch(id); r.code != 0 {
		t.Fatalf("decommission watch: %s", r)
	}
	v := w.decomGet(id)
	if v.Decommission.Status != lifecycle.JobCompleted || w.nodes()[host] != "active" {
		t.Errorf("run %s at %s, node %q; want completed and active", v.Decommission.Status, v.Decommission.CurrentStage, w.nodes()[host])
	}
	if r := w.sim.hostResidue(host); !r.Clean {
		t.Errorf("residue left on the host: %+v", r.Report)
	}
	for _, typ := range []lifecycle.TaskType{lifecycle.TaskTerminalClose, lifecycle.TaskRevokeUser,
		lifecycle.TaskStorageCleanup, lifecycle.TaskGPUScrub, lifecycle.TaskValidateClean} {
		if tk, ok := v.task(typ); !ok || !tk.passed() {
			t.Errorf("%s: %+v (found %v); want succeeded with passing evidence", typ, tk, ok)
		}
	}
	decomCheckGPUEvidence(t, v, 8, in)
	// A clean soft reset passes DCGM level 1, its result per GPU kept.
	if val, _ := v.task(lifecycle.TaskValidateClean); val.Evidence == nil || val.Evidence.Diag == nil || val.Evidence.Diag.State != "ran" ||
		val.Evidence.Diag.Level != 1 || !val.Evidence.Diag.Passed || len(val.Evidence.Diag.Tests) != 1 || len(val.Evidence.Diag.Tests[0].Results) != 8 {
		t.Errorf("validation diag: %+v; want DCGM level 1 run and passed on 8 GPUs", val.Evidence)
	}
	if eff := w.sim.decomEffectsSince(mark, host); len(eff) != 0 {
		t.Errorf("a soft reset touched the machine in MAAS: %v", eff)
	}
}

// decomCheckGPUEvidence checks the clean certificate: the drain killed
// the tenant's processes (pids; the GPU's compute process among them) and
// removed its user; the scrub names every GPU with its memory before and
// after and a passed reset, the tool and its version; the validation
// checked the host and every GPU.
func decomCheckGPUEvidence(t *testing.T, v decomView, gpus int, in fakehost.Injected) {
	t.Helper()
	closed, _ := v.task(lifecycle.TaskTerminalClose)
	killed := decomCheckItems(closed, "processes_killed")
	for _, pid := range in.PIDs {
		if !strings.Contains(killed, fmt.Sprintf("%d ", pid)) {
			t.Errorf("terminal.close evidence does not name the tenant's process %d: %q", pid, killed)
		}
	}
	revoked, _ := v.task(lifecycle.TaskRevokeUser)
	if got := decomCheckItems(revoked, "users_removed"); got != in.User {
		t.Errorf("revoke_user evidence: users removed %q, want %q", got, in.User)
	}
	scrub, _ := v.task(lifecycle.TaskGPUScrub)
	if scrub.Evidence == nil || len(scrub.Evidence.GPUs) != gpus || len(scrub.Evidence.Tools) == 0 {
		t.Fatalf("scrub evidence: %+v; want %d GPUs and the tool versions", scrub.Evidence, gpus)
	}
	for _, g := range scrub.Evidence.GPUs {
		if g.UUID == "" || g.Serial == "" || !g.Passed || g.Before == nil || g.After == nil ||
			g.Before.MemoryUsedMiB == nil || g.After.MemoryUsedMiB == nil {
			t.Errorf("GPU %d evidence lacks identity, verdict or memory before/after: %+v", g.Index, g)
			continue
		}
		if *g.After.MemoryUsedMiB != 0 || len(g.After.ComputeProcesses) != 0 {
			t.Errorf("GPU %d after the scrub: %d MiB, %d compute processes", g.Index, *g.After.MemoryUsedMiB, len(g.After.ComputeProcesses))
		}
		if !slices.ContainsFunc(g.Steps, func(c wire.Check) bool { return c.Name == "reset" && c.Passed }) {
			t.Errorf("GPU %d: no passed reset step in %+v", g.Index, g.Steps)
		}
	}
	val, _ := v.task(lifecycle.TaskValidateClean)
	if val.Evidence == nil || len(val.Evidence.GPUs) != gpus || decomCheckItems(val, "tenant_users") != "" ||
		!slices.ContainsFunc(val.Evidence.Checks, func(c wire.Check) bool { return c.Name == "tenant_users" && c.Passed }) {
		t.Errorf("validation evidence: %+v; want a passed tenant_users check and %d GPUs", val.Evidence, gpus)
	}
}

// decomCheckItems joins the items of a task's evidence check name.
func decomCheckItems(tk decomTask, name string) string {
	if tk.Evidence == nil {
		return ""
	}
	for _, c := range tk.Evidence.Checks {
		if c.Name == name {
			return strings.Join(c.Items, "; ")
		}
	}
	return ""
}

// TestDecomUnclearableResidueQuarantines: a plain tenant mount (no task
// unmounts it) fails the validation; the node ends quarantined, the run
// waits for an operator with cleanup_validation_failure, the evidence
// names what failed, and /metrics counts it. (A GPU that refuses reset
// while its driver is held no longer ends here: the scrub reboots the
// host through the agent and scrubs again; the workflow's reboot
// fallback tests hold that.)
func TestDecomUnclearableResidueQuarantines(t *testing.T) {
	w := newWorld(t, simOptions{machines: 2, speed: 600, gpus: "nvidia:8"})
	hosts := hostnames(1, 2)
	nodes := w.decomActive(hosts...)
	w.sim.residue(hosts[0], fakehost.Residue{User: "tenant1", Mount: "/mnt/tenant", ScratchFile: true})
	w.sim.residue(hosts[1], fakehost.Residue{User: "tenant2", Mount: "/mnt/tenant", ScratchFile: true})
	ids := map[string]string{}
	for _, h := range hosts {
		ids[h] = w.decomStart(nodes[h], "soft_reset", "--storage-cleanup", "all")
	}
	for _, h := range hosts {
		if r := w.decomWatch(ids[h]); r.code != 7 {
			t.Errorf("%s: decommission watch: want exit 7 (manual intervention); %s", h, r)
		}
		v := w.decomGet(ids[h]).Decommission
		if v.Status != lifecycle.JobFailedManualIntervention || v.FailureClass != lifecycle.FailCleanupValidation {
			t.Errorf("%s: run %s/%s at %s (%s); want failed_manual_intervention/cleanup_validation_failure",
				h, v.Status, v.FailureClass, v.CurrentStage, v.ErrorMessage)
		}
		if st := w.nodes()[h]; st != "quarantined" {
			t.Errorf("%s: node %q, want quarantined", h, st)
		}
	}
	for _, h := range hosts {
		val, _ := w.decomGet(ids[h]).task(lifecycle.TaskValidateClean)
		if c := decomFailedChecks(val); val.passed() || !strings.Contains(c["mounts"], "/mnt/tenant") {
			t.Errorf("%s: validation %s with failed checks %v; want the mounts check naming /mnt/tenant", h, val.State, c)
		}
	}
	fams := scrape(t, w.daemon)
	for _, m := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"maas_sidecar_stage_failures_total", map[string]string{"failure_class": "cleanup_validation_failure"}, 2},
		{"maas_sidecar_decommission_validation_failures_total", map[string]string{"mode": "soft_reset"}, 2},
		{"maas_sidecar_decommissions_total", map[string]string{"mode": "soft_reset", "outcome": "failed_manual_intervention"}, 2},
		{"maas_sidecar_nodes", map[string]string{"state": "quarantined"}, 2},
	} {
		if got := sample(fams, m.name, m.labels); got != m.want {
			t.Errorf("%s %v = %v, want %v", m.name, m.labels, got, m.want)
		}
	}
}

// decomFailedGPUs lists the indexes of the GPUs a task's evidence failed.
func decomFailedGPUs(tk decomTask) []int {
	var out []int
	if tk.Evidence != nil {
		for _, g := range tk.Evidence.GPUs {
			if !g.Passed {
				out = append(out, g.Index)
			}
		}
	}
	return out
}

// decomGPU returns the scrub evidence of GPU index i, nil if none.
func decomGPU(tk decomTask, i int) *wire.GPUEvidence {
	if tk.Evidence == nil {
		return nil
	}
	for k := range tk.Evidence.GPUs {
		if tk.Evidence.GPUs[k].Index == i {
			return &tk.Evidence.GPUs[k]
		}
	}
	return nil
}

// decomFailedChecks maps a task's failed checks to their items.
func decomFailedChecks(tk decomTask) map[string]string {
	out := map[string]string{}
	if tk.Evidence != nil {
		for _, c := range tk.Evidence.Checks {
			if !c.Passed {
				out[c.Name] = strings.Join(c.Items, "; ")
			}
		}
	}
	return out
}

// TestDecomReimageReenrolls: a reimage keeps the node id, releases and
// deploys the machine exactly once each, and the reinstalled host's
// agent enrolls with a new certificate while the old one is refused.
func TestDecomReimageReenrolls(t *testing.T) {
	w := newWorld(t, simOptions{machines: 1, speed: 600, gpus: "nvidia:8"})
	host := hostnames(1)[0]
	node := w.decomActive(host)[host]
	a := w.sim.agent(host)
	eventually(t, "the agent's first enrollment", func() bool { return a.count(`"msg":"agent enrolled"`) == 1 })
	old := w.sim.decomAgentIdentity(host)
	before, _ := w.decomNode(node)
	if before.AgentCertSerial != old.serial(t) {
		t.Fatalf("the node's certificate serial %q is not the agent's %q", before.AgentCertSerial, old.serial(t))
	}
	if code := w.decomAgentCall(old, node); code == 401 || code == 403 {
		t.Fatalf("the agent's certificate is refused (%d) before the reimage: the check below would prove nothing", code)
	}
	mark := w.sim.decomMark()

	id := w.decomStart(node, "reimage", "--erase", "quick", "--storage-cleanup", "all")
	if r := w.decomWatch(id); r.code != 0 {
		t.Fatalf("decommission watch: %s", r)
	}
	after, found := w.decomNode(node)
	if !found || after.ID != node || after.Status != lifecycle.NodeActive {
		t.Fatalf("after the reimage node %s is %+v (found %v); want the same node active", node, after.Status, found)
	}
	if after.AgentCertSerial == "" || after.AgentCertSerial == old.serial(t) || after.PrevAgentCertSerial == old.serial(t) {
		t.Errorf("certificate serial %q (previous %q); want a new one and the old %q forgotten",
			after.AgentCertSerial, after.PrevAgentCertSerial, old.serial(t))
	}
	if code := w.decomAgentCall(old, node); code != 401 && code != 403 {
		t.Errorf("the old certificate is answered %d after the reimage, want 401 or 403", code)
	}
	if n := a.count(`"msg":"agent enrolled"`); n != 2 {
		t.Errorf("the host's agents enrolled %d times in all, want 2 (onboarding, reimage)", n)
	}
	if eff := w.sim.decomEffectsSince(mark, host); fmt.Sprint(eff) != fmt.Sprint(map[string]int{"deploy": 1, "release": 1}) {
		t.Errorf("side effects on the machine during the reimage: %v; want one release and one deploy", eff)
	}
	if st, pw := w.sim.decomMachine(host); st != "Deployed" || pw != "on" {
		t.Errorf("machine %s, power %s; want Deployed and on", st, pw)
	}
}

// TestDecomFullDecommissionDeletesTheNode: a full decommission has the
// agent uninstall itself, releases and powers the machine off, deletes
// the node, and onboarding the same machine again makes a new node.
func TestDecomFullDecommissionDeletesTheNode(t *testing.T) {
	w := newWorld(t, simOptions{machines: 1, speed: 600, gpus: "nvidia:8"})
	host := hostnames(1)[0]
	node := w.decomActive(host)[host]
	mark := w.sim.decomMark()

	id := w.decomStart(node, "full_decommission")
	if r := w.decomWatch(id); r.code != 0 {
		t.Fatalf("decommission watch: %s", r)
	}
	v := w.decomGet(id)
	if tk, ok := v.task(lifecycle.TaskUninstall); !ok || tk.State != string(lifecycle.TaskSucceeded) || tk.Success == nil || !*tk.Success {
		t.Errorf("node.uninstall: %+v (found %v); want succeeded", tk, ok)
	}
	unit := fakehost.Host{Root: filepath.Join(w.sim.bootDir, host)}
	if e, a := unit.Unit("gpuaas-node-agent.service"); e != "disabled" || a != "inactive" {
		t.Errorf("the host's agent unit is %s and %s after node.uninstall, want disabled and inactive", e, a)
	}
	if !decomStageSucceeded(v, lifecycle.StageRemoveNodeRecord) {
		t.Errorf("remove_gpuaas_node_record did not succeed: %+v", v.Events)
	}
	if n, found := w.decomNode(node); found && n.Status != lifecycle.NodeDeleted {
		t.Errorf("node %s is %s, want deleted", node, n.Status)
	}
	if st, pw := w.sim.decomMachine(host); st != "Ready" || pw != "off" {
		t.Errorf("machine %s, power %s; want Ready and off", st, pw)
	}
	// MAAS powers a released machine off; the power-off stage adopts that
	// or asks once.
	if eff := w.sim.decomEffectsSince(mark, host); eff["release"] != 1 || eff["power_off"] > 1 || len(eff) > 2 {
		t.Errorf("side effects on the machine during the decommission: %v; want one release and at most one power_off", eff)
	}

	again := w.decomActive(host)[host]
	if again == node {
		t.Errorf("re-onboarding %s gave the deleted node's id %s back", host, node)
	}
	if n, _ := w.decomNode(again); n.Status != lifecycle.NodeActive {
		t.Errorf("the re-onboarded node %s is %s, want active", again, n.Status)
	}
}

// decomStageSucceeded reports whether the run has a succeeded event for
// stage s.
func decomStageSucceeded(v decomView, s lifecycle.Stage) bool {
	return slices.ContainsFunc(v.Events, func(e lifecycle.RunEvent) bool {
		return e.Stage == s && e.Status == lifecycle.EventSucceeded
	})
}

// TestDecomStorageOnly: a storage-only cleanup removes the scratch files
// and the Weka mount left on an active node, validates it clean and
// leaves it active, without touching MAAS.
func TestDecomStorageOnly(t *testing.T) {
	w := newWorld(t, simOptions{machines: 1, speed: 600, gpus: "nvidia:8"})
	host := hostnames(1)[0]
	node := w.decomActive(host)[host]
	mark := w.sim.decomMark()
	// The deploy user's files: between tenants there is no tenant user
	// left for a storage-only cleanup to find.
	w.sim.residue(host, fakehost.Residue{User: "ubuntu", WekaMount: "/mnt/weka", ScratchFile: true})
	if r := w.sim.hostResidue(host); len(r.Files) == 0 || len(r.Mounts) != 1 {
		t.Fatalf("injected residue not reported: %+v", r.Report)
	}

	id := w.decomStart(node, "storage_cleanup", "--storage-cleanup", "all")
	if r := w.decomWatch(id); r.code != 0 {
		t.Fatalf("decommission watch: %s", r)
	}
	v := w.decomGet(id)
	if v.Decommission.Status != lifecycle.JobCompleted || w.nodes()[host] != "active" {
		t.Errorf("run %s, node %q; want completed and active", v.Decommission.Status, w.nodes()[host])
	}
	if r := w.sim.hostResidue(host); !r.Clean {
		t.Errorf("residue left on the host: %+v", r.Report)
	}
	for _, typ := range []lifecycle.TaskType{lifecycle.TaskStorageCleanup, lifecycle.TaskValidateClean} {
		if tk, ok := v.task(typ); !ok || !tk.passed() {
			t.Errorf("%s: %+v (found %v); want succeeded with passing evidence", typ, tk, ok)
		}
	}
	if eff := w.sim.decomEffectsSince(mark, host); len(eff) != 0 {
		t.Errorf("a storage-only cleanup touched the machine in MAAS: %v", eff)
	}
}
