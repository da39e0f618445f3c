package workflow_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/canary"
	"github.com/gpuaas/maas-sidecar/agent/task/storage"
	"github.com/gpuaas/maas-sidecar/agent/task/tasktest"
	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// driveHost is a host with fakehost's NVMe drives (nvme0n1 the boot
// disk, nvme1n1 and nvme2n1 data) whose agent runs the real storage
// cleanup and canary tasks on them; other tasks pass. MAAS's erase of the
// machine wipes its drives as wipe-disks' method does.
func driveHost(t *testing.T, s *site) (*tasktest.Host, answer) {
	h := tasktest.New(t)
	if err := fakehost.Provision(string(h.Root), fakehost.Spec{}); err != nil {
		t.Fatal(err)
	}
	s.sim.OnErase(func(e maassim.Erased) {
		if err := fakehost.MaasErase(string(h.Root), e.Method); err != nil {
			t.Error(err)
		}
	})
	_, err := s.store.UpdateSitePolicy(context.Background(), "site-1", func(p *lifecycle.SitePolicy) error {
		p.TenantDrives = &lifecycle.TenantDrives{AllNVMe: true, Canaries: 4}
		return nil
	})
	must(t, err)
	return h, func(tk lifecycle.AgentTask) (lifecycle.TaskResult, bool) {
		handlers := map[lifecycle.TaskType]task.Handler{lifecycle.TaskStorageCleanup: storage.Handler{},
			lifecycle.TaskCanaryPlant: canary.Plant{}, lifecycle.TaskCanaryCheck: canary.Check{}}
		hd, ok := handlers[tk.Type]
		if !ok {
			return cleanHost(tk)
		}
		res, err := hd.Run(context.Background(), h.Env(), tk.Payload)
		out := lifecycle.TaskResult{Success: err == nil, Message: res.Message, FinishedAt: time.Now()}
		if err != nil {
			out.Message = err.Error()
		}
		if res.Evidence != nil {
			out.Evidence, _ = json.Marshal(res.Evidence)
		}
		return out, true
	}
}

func evidence(t *testing.T, tk lifecycle.AgentTask) wire.Evidence {
	t.Helper()
	var ev wire.Evidence
	if tk.Result == nil || json.Unmarshal(tk.Result.Evidence, &ev) != nil {
		t.Fatalf("task %s has no evidence: %+v", tk.ID, tk.Result)
	}
	return ev
}

// A soft reset with storage_cleanup drives erases both data drives with
// their own crypto erase, reads its canaries back, leaves the boot disk
// alone and keeps the node active.
func TestSoftResetErasesTheTenantDrives(t *testing.T) {
	s := newSite(t)
	n := s.deployedNode("c22u01", "10.0.22.1")
	h, agent := driveHost(t, s)
	s.runAgent(n.ID, agent)
	id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeSoftReset, Storage: lifecycle.StorageDrives, Reason: "tenant_transition"})
	r := s.wait(id, 30*time.Second)
	if r.Status != lifecycle.JobCompleted || s.node(n.ID).Status != lifecycle.NodeActive {
		t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
	}
	ev := evidence(t, s.runTasks(n.ID, id)[lifecycle.TaskStorageCleanup])
	if ev.Erase == nil || ev.Erase.By != "drive" || ev.Erase.Mode != "sanitize-crypto" || ev.Erase.Canary != wire.CanaryPassed || len(ev.Drives) != 2 {
		t.Fatalf("erase evidence %+v, drives %+v", ev.Erase, ev.Drives)
	}
	for _, d := range ev.Drives {
		if d.Device == "/dev/nvme0n1" || len(d.Canaries) != 4 || len(d.Survivors) != 0 || !d.Passed {
			t.Errorf("drive %+v", d)
		}
	}
	if calls := strings.Join(h.Exec.CallsOf("nvme"), "\n"); strings.Contains(calls, "nvme0") {
		t.Errorf("the boot disk's controller was touched:\n%s", calls)
	}
}

// A reimage with MAAS's quick erase plants canaries in the first and
// last 2 MiB, and the redeployed host's agent reads them back before the
// node is enabled; when MAAS's erase does nothing, the read-back finds
// every canary, quarantines the node and names MAAS's erase.
func TestReimageReadsCanariesBackAfterMaasErase(t *testing.T) {
	for _, noop := range []bool{false, true} {
		t.Run(map[bool]string{false: "quick erase", true: "erase that does nothing"}[noop], func(t *testing.T) {
			t.Parallel()
			s := newSite(t)
			s.reenrollOnBoot()
			n := s.deployedNode("c22u02", "10.0.22.2")
			_, agent := driveHost(t, s)
			s.runAgent(n.ID, agent)
			if noop {
				must(t, s.sim.EraseDoesNothing(context.Background(), n.MaasSystemID, 1))
			}
			id := s.decommission(n, lifecycle.DecommissionRequest{Mode: lifecycle.ModeReimage, Erase: lifecycle.EraseQuick,
				Storage: lifecycle.StorageNone, Reason: "tenant_transition"})
			r := s.wait(id, 60*time.Second)
			tasks := s.runTasks(n.ID, id)
			plant := evidence(t, tasks[lifecycle.TaskCanaryPlant])
			for _, d := range plant.Drives {
				for _, c := range d.Canaries {
					if c.Offset >= wire.QuickEraseBytes && c.Offset < 64<<20-wire.QuickEraseBytes {
						t.Errorf("canary at %d of %s lies where quick erase does not reach", c.Offset, d.Device)
					}
				}
			}
			check := evidence(t, tasks[lifecycle.TaskCanaryCheck])
			if check.Erase == nil || check.Erase.By != "maas" || check.Erase.Mode != "quick" || !strings.Contains(check.Erase.Covers, "first and last 2 MiB") {
				t.Errorf("the evidence does not say which erase MAAS was asked for: %+v", check.Erase)
			}
			if !noop {
				if r.Status != lifecycle.JobCompleted || s.node(n.ID).Status != lifecycle.NodeActive || check.Erase.Canary != wire.CanaryPassed {
					t.Fatalf("%s at %s: %s\n%s", r.Status, r.CurrentStage, r.ErrorMessage, s.events(id))
				}
				return
			}
			if r.Status != lifecycle.JobFailedManualIntervention || r.FailureClass != lifecycle.FailCleanupValidation ||
				s.node(n.ID).Status != lifecycle.NodeQuarantined || check.Erase.Canary != wire.CanaryFailed {
				t.Fatalf("got %s/%s, node %s: %s", r.Status, r.FailureClass, s.node(n.ID).Status, r.ErrorMessage)
			}
			for _, want := range []string{"MAAS's quick erase (stage release_maas_node)", "/dev/nvme1n1: 4 of 4 canaries survived", "at offsets"} {
				if !strings.Contains(r.ErrorMessage, want) {
					t.Errorf("the failure %q does not say %q", r.ErrorMessage, want)
				}
			}
		})
	}
}
