package workflow_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Soft reset and storage-only cleanup run their agent tasks in order,
// never touch MAAS, keep the node active, leave the evidence on tasks of
// the run, and tell the control plane each step once.
func TestHostOnlyModesEndClean(t *testing.T) {
	cases := []struct {
		mode    lifecycle.DecommissionMode
		storage lifecycle.StorageCleanup
		tasks   []string
		events  []string
	}{
		{lifecycle.ModeSoftReset, lifecycle.StorageAll,
			[]string{"terminal.close", "allocation.revoke_user", "node.storage_cleanup", "node.gpu_scrub", "node.validate_clean"},
			[]string{"node.decommission.started", "node.disabled", "node.enabled", "node.decommission.completed"}},
		{lifecycle.ModeSoftReset, lifecycle.StorageNone,
			[]string{"terminal.close", "allocation.revoke_user", "node.gpu_scrub", "node.validate_clean"},
			[]string{"node.decommission.started", "node.disabled", "node.enabled", "node.decommission.completed"}},
		{lifecycle.ModeStorageCleanup, lifecycle.StorageWeka,
			[]string{"node.storage_cleanup", "node.validate_clean"},
			[]string{"node.decommission.started", "node.decommission.completed"}},
	}
	for _, c := range cases {
		t.Run(string(c.mode)+"/"+string(c.storage), func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			n := s.deployedNode("c20u01", "10.0.20.1")
			seen := s.runAgent(n.ID, cleanHost)
			id := s.decommission(n, lifecycle.DecommissionRequest{Mode: c.mode, Storage: c.storage, Reason: "tenant_transition"})
			r := s.wait(id, 30*time.Second)
			if r.Status != lifecycle.JobCompleted {
				t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
			}
			if diff := cmp.Diff(c.tasks, seen.types()); diff != "" {
				t.Errorf("agent tasks (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.events, s.eventTypes(id, len(c.events))); diff != "" {
				t.Errorf("lifecycle events (-want +got):\n%s", diff)
			}
			if got := s.node(n.ID); got.Status != lifecycle.NodeActive || got.AgentCertSerial != "old-c20u01" {
				t.Errorf("node = %s with serial %q, want active with its certificate", got.Status, got.AgentCertSerial)
			}
			if got := s.machineCalls(n.MaasSystemID); got != "release=0 deploy=0 power_off=0" {
				t.Errorf("a host-only mode touched MAAS: %s", got)
			}
			tasks := s.runTasks(n.ID, id)
			if len(tasks) != len(c.tasks) || len(tasks[lifecycle.TaskValidateClean].Result.Evidence) == 0 {
				t.Errorf("the run's tasks (by run id) = %d, validation evidence kept: %v", len(tasks), tasks[lifecycle.TaskValidateClean].Result)
			}
			d := s.stageDetails(id, lifecycle.StageValidateCleanNode)
			if d["node.validate_clean.checks_passed"] != "2/2" || d["node.validate_clean.evidence"] != "passed" {
				t.Errorf("validation summary in the stage event: %v", d)
			}
		})
	}
}

// A validation that finds residue, or a scrub that cannot clear a GPU,
// quarantines the node, tells the control plane, and stops the run for
// an operator with cleanup_validation_failure.
func TestResidueQuarantinesTheNode(t *testing.T) {
	for _, bad := range []lifecycle.TaskType{lifecycle.TaskValidateClean, lifecycle.TaskGPUScrub} {
		t.Run(string(bad), func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			n := s.deployedNode("c20u02", "10.0.20.2")
			s.runAgent(n.ID, func(tk lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
				return result(tk, tk.Type != bad), true
			})
			id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset})
			r := s.wait(id, 30*time.Second)
			if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailCleanupValidation ||
				r.RecommendedAction != lifecycle.ActionRetryStage {
				t.Fatalf("got %s/%s recommending %s: %s\n%s", r.Status, r.FailureClass, r.RecommendedAction, r.ErrorMessage, s.events(id))
			}
			if got := s.node(n.ID).Status; got != lifecycle.NodeQuarantined {
				t.Errorf("node is %s, want quarantined", got)
			}
			want := []string{"node.decommission.started", "node.disabled", "node.quarantined",
				"node.decommission.manual_intervention_required"}
			if diff := cmp.Diff(want, s.eventTypes(id, len(want))); diff != "" {
				t.Errorf("lifecycle events (-want +got):\n%s", diff)
			}
			if d := s.stageDetails(id, r.CurrentStage); !strings.Contains(d[string(bad)+".failed"], "gpu_memory") {
				t.Errorf("the failed checks are not named in the stage event: %v", d)
			}
			wantCount := map[lifecycle.TaskType]string{lifecycle.TaskValidateClean: "validation:soft_reset",
				lifecycle.TaskGPUScrub: "scrub:amd"}[bad]
			if diff := cmp.Diff([]string{wantCount}, s.metrics.seen()); diff != "" {
				t.Errorf("decommission counters (-want +got):\n%s", diff)
			}
		})
	}
}
