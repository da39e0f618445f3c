package feed_test

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// Row 9: a machine bound to no node is unmanaged: nothing is recorded or done.
func TestUnmanagedMachineIsIgnored(t *testing.T) {
	s := newSite(t, opts{webhooks: true, poll: 100 * time.Millisecond, resync: time.Hour})
	id, _ := s.activeNode("gpu-a1")
	sid, err := s.sim.AddMachine(maassim.HostSpec{}, "stray-1", maassim.StatusDeployed)
	must(t, err)
	must(t, s.sim.ReleaseOutOfBand(context.Background(), sid))
	s.eventually(5*time.Second, "the hint was read", func() bool { return s.wakes.count("machine:"+sid) > 0 })
	rep, err := s.feed.Resync(context.Background(), siteID)
	must(t, err)
	if rep.Unmanaged != 1 || rep.Nodes != 1 || rep.Drifted != 0 {
		t.Fatalf("report %+v, want 1 node in sync and 1 unmanaged machine", rep)
	}
	states, err := s.store.ListNodeMaasStates(context.Background(), lifecycle.MaasStateFilter{})
	must(t, err)
	if len(states) != 1 || states[0].NodeID != id || states[0].DriftDetected {
		t.Fatalf("states %+v, want only the managed node's, without drift", states)
	}
	if got := s.metric("maas_sidecar_unmanaged_machines", "site", siteID); got != 1 {
		t.Fatalf("maas_sidecar_unmanaged_machines = %v, want 1", got)
	}
	audit, err := s.store.ListAudit(context.Background(), lifecycle.AuditFilter{})
	must(t, err)
	if len(audit) != 0 {
		t.Fatalf("audit %+v, want nothing done", audit)
	}
}

// The agent heartbeat rule: silence past the policy threshold takes an
// active node offline (Deployed/offline is the warning row), contact
// brings it back and the warning heals.
func TestHeartbeatOfflineAndBack(t *testing.T) {
	fake := clockwork.NewFakeClock()
	s := newSite(t, opts{webhooks: true, poll: 100 * time.Millisecond, resync: time.Hour, clock: fake})
	id, _ := s.activeNode("gpu-a1")
	_, err := s.feed.Resync(context.Background(), siteID) // MAAS observed: Deployed
	must(t, err)
	must(t, s.recon.Heartbeat(context.Background()))
	if s.node(id).Status != lifecycle.NodeActive {
		t.Fatal("a node heard from just now went offline")
	}
	fake.Advance(301 * time.Second)
	if got := s.metric("maas_sidecar_agent_last_contact_age_seconds", "site", siteID); got < 300 {
		t.Fatalf("maas_sidecar_agent_last_contact_age_seconds = %v, want > 300", got)
	}
	must(t, s.recon.Heartbeat(context.Background()))
	st := s.state(id)
	if s.node(id).Status != lifecycle.NodeOffline || st.DriftRule != lifecycle.DriftAgentNotPolling || !st.DriftDetected {
		t.Fatalf("after silence: node %s, drift %+v", s.node(id).Status, st.Drift)
	}
	if s.metric("maas_sidecar_heartbeat_transitions_total", "to", "offline") != 1 ||
		s.metric("maas_sidecar_nodes", "site", siteID, "state", "offline") != 1 {
		t.Fatal("offline transition not in the metrics")
	}
	must(t, s.store.TouchNodeContact(context.Background(), id)) // the agent polls again
	must(t, s.recon.Heartbeat(context.Background()))
	st = s.state(id)
	if s.node(id).Status != lifecycle.NodeActive || st.DriftDetected || st.DriftResolvedAt == nil {
		t.Fatalf("after contact: node %s, drift %+v", s.node(id).Status, st.Drift)
	}
	if s.metric("maas_sidecar_heartbeat_transitions_total", "to", "active") != 1 {
		t.Fatal("recovery not in the metrics")
	}
}

// Hardware-sync drift on a deployed node queues one node.hw_sync_reseed.
func TestHardwareSyncDriftQueuesReseed(t *testing.T) {
	s := newSite(t, opts{webhooks: true, poll: 100 * time.Millisecond, resync: time.Hour, requireHWSync: true})
	sid, err := s.sim.AddMachine(maassim.HostSpec{}, "gpu-a1", maassim.StatusDeployed)
	must(t, err)
	must(t, s.sim.SetHardwareSyncOutOfBand(context.Background(), sid, true, 900, time.Now()))
	id := s.bind("gpu-a1", sid)
	_, err = s.feed.Resync(context.Background(), siteID)
	must(t, err)
	if st := s.state(id); st.DriftRule != "" || !st.HWSyncEnabled {
		t.Fatalf("healthy sync drifted: %+v", st)
	}
	must(t, s.sim.SetHardwareSyncOutOfBand(context.Background(), sid, true, 900, time.Now().Add(-time.Hour)))
	s.eventually(5*time.Second, "hardware-sync drift", func() bool { return s.state(id).DriftRule == lifecycle.DriftHWSyncUnhealthy })
	must(t, s.sim.SetHardwareSyncOutOfBand(context.Background(), sid, false, 900, time.Now().Add(-time.Hour)))
	time.Sleep(200 * time.Millisecond)
	tasks, err := s.store.ListTasks(context.Background(), lifecycle.TaskFilter{NodeID: id, Type: lifecycle.TaskHWSyncReseed})
	must(t, err)
	if len(tasks) != 1 || s.node(id).Status != lifecycle.NodeActive {
		t.Fatalf("reseed tasks %d (want exactly 1), node %s", len(tasks), s.node(id).Status)
	}
	if s.metric("maas_sidecar_drift_open", "rule", "hardware_sync_unhealthy") != 1 {
		t.Fatal("hardware-sync drift not in the metrics")
	}
	must(t, s.sim.SetHardwareSyncOutOfBand(context.Background(), sid, true, 900, time.Now()))
	s.eventually(5*time.Second, "drift heals", func() bool { return !s.state(id).DriftDetected })
}

// A machine owned by an active run is left to that run.
func TestRunInFlightIsNotFought(t *testing.T) {
	s := newSite(t, opts{webhooks: true, poll: 100 * time.Millisecond, resync: time.Hour})
	id, sid := s.activeNode("gpu-a1")
	must(t, s.store.CreateRun(context.Background(), lifecycle.Run{ID: "run-1", Kind: lifecycle.RunOnboarding, SiteID: siteID,
		NodeID: id, MaasSystemID: sid, Hostname: "gpu-a1", Status: lifecycle.JobPending, CurrentStage: lifecycle.StageLoadSiteConfig}))
	must(t, s.sim.ReleaseOutOfBand(context.Background(), sid))
	s.eventually(5*time.Second, "observed Releasing", func() bool { return s.state(id).LastStatus == "Releasing" })
	time.Sleep(100 * time.Millisecond)
	if st := s.state(id); s.node(id).Status != lifecycle.NodeActive || st.DriftDetected || len(s.audits(id)) != 0 {
		t.Fatalf("a run's machine was acted on: node %s, drift %+v", s.node(id).Status, st.Drift)
	}
	if s.wakes.count("machine:"+sid) == 0 {
		t.Fatal("the run was not woken")
	}
}
