//go:build e2e

package system

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// TestDecomXid48EscalatesAndQuarantines: a soft reset of a node whose
// tenancy saw an Xid 48 (a double-bit ECC error on GPU 0, injected through
// the simulator) on the real daemon and agent: the scrub judges the
// tenancy's history before anything is cleared and names the Xid; the
// validation runs the DCGM diagnostic one level deeper than the soft
// reset's level 1, its memory test fails GPU 0; the node ends
// quarantined and `decommission get` carries the history, the
// diagnostic's tests per GPU and the reason. The clean case (level 1,
// passed) is TestDecomSoftResetEndsClean.
func TestDecomXid48EscalatesAndQuarantines(t *testing.T) {
	w := newWorld(t, simOptions{machines: 1, speed: 600, gpus: "nvidia:8"})
	host := hostnames(1)[0]
	node := w.decomActive(host)[host]
	w.sim.residue(host, fakehost.Residue{User: "tenant1", Process: true, GPUMemoryMiB: 2048, Xid: 48})

	id := w.decomStart(node, "soft_reset")
	if r := w.decomWatch(id); r.code != 7 {
		t.Fatalf("decommission watch: want exit 7 (manual intervention); %s", r)
	}
	v := w.decomGet(id)
	d := v.Decommission
	if d.Status != lifecycle.JobFailedManualIntervention || d.FailureClass != lifecycle.FailCleanupValidation ||
		d.CurrentStage != lifecycle.StageValidateCleanNode || !strings.Contains(d.ErrorMessage, "Xid 48") {
		t.Errorf("run %s/%s at %s (%s); want failed_manual_intervention/cleanup_validation_failure at validate_clean_node naming Xid 48",
			d.Status, d.FailureClass, d.CurrentStage, d.ErrorMessage)
	}
	if st := w.nodes()[host]; st != "quarantined" {
		t.Errorf("node %q, want quarantined", st)
	}
	scrub, _ := v.task(lifecycle.TaskGPUScrub)
	g := decomGPU(scrub, 0)
	if g == nil || g.Before == nil || g.Before.ECCUncorrectedAggregate == nil || *g.Before.ECCUncorrectedAggregate != 1 ||
		!slices.ContainsFunc(g.Steps, func(c wire.Check) bool {
			return c.Name == "tenancy_history" && !c.Passed && strings.Contains(c.Reason, "Xid 48")
		}) || !slices.ContainsFunc(g.Steps, func(c wire.Check) bool { return c.Name == "reset" && c.Passed }) {
		t.Errorf("scrub evidence of GPU 0: %+v; want the Xid 48 and the ECC count judged before the reset, and the reset done", g)
	}
	if got := decomFailedGPUs(scrub); len(got) != 1 || got[0] != 0 {
		t.Errorf("scrub failed GPUs %v; want GPU 0 only", got)
	}
	val, ok := v.task(lifecycle.TaskValidateClean)
	if !ok || val.Evidence == nil || val.Evidence.Diag == nil {
		t.Fatalf("validation %+v: no diagnostic in the evidence", val)
	}
	dg := val.Evidence.Diag
	if dg.State != "ran" || dg.RequestedLevel != 1 || dg.Level != 2 || dg.Passed || len(dg.EscalatedBy) == 0 ||
		!strings.Contains(dg.Reason, "memory on GPU 0") {
		t.Errorf("diagnostic %+v; want level 2 escalated from 1, failed on GPU 0's memory test", dg)
	}
	if len(dg.Tests) != 3 || len(dg.Tests[2].Results) != 8 {
		t.Errorf("diagnostic tests %+v; want level 2's three tests with a result for each of 8 GPUs", dg.Tests)
	}
}
