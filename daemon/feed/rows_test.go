package feed_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// row is one rule of seed 001 §6.4 driven end to end: a node as the
// inventory has it, an out-of-band change in the simulator, and what the
// daemon must end with.
type row struct {
	name   string
	prep   func(s *site, id, sid string)
	change func(s *site, id, sid string) error
	state  lifecycle.NodeState
	rule   lifecycle.DriftRule // "" when no drift may be recorded
	sev    lifecycle.DriftSeverity
	open   bool     // the drift is still open at the end
	audit  []string // the node's audit actions
	check  func(t *testing.T, s *site, id, sid string)
}

// touch makes MAAS announce the machine without changing its state.
func touch(s *site, _, sid string) error {
	return s.sim.SetHardwareSyncOutOfBand(context.Background(), sid, false, 0, time.Time{})
}

var rows = []row{
	{name: "1 Deployed/active: no action", change: touch, state: lifecycle.NodeActive},
	{name: "2 Deployed/offline: agent issue, no MAAS action",
		prep: func(s *site, id, _ string) {
			s.move(id, lifecycle.NodeActive, lifecycle.NodeOffline, lifecycle.ActorReconciler, "")
		},
		change: touch, state: lifecycle.NodeOffline, rule: lifecycle.DriftAgentNotPolling, sev: lifecycle.SeverityWarning, open: true},
	{name: "3 Ready/Released while active: quarantine",
		change: func(s *site, _, sid string) error { return s.sim.ReleaseOutOfBand(context.Background(), sid) },
		state:  lifecycle.NodeQuarantined, rule: lifecycle.DriftReleased, sev: lifecycle.SeverityCritical, open: true,
		audit: []string{"reconcile.quarantine"}},
	{name: "4 Broken while active: quarantine",
		change: func(s *site, _, sid string) error {
			return s.sim.MarkBrokenOutOfBand(context.Background(), sid, "PSU failure")
		},
		state: lifecycle.NodeQuarantined, rule: lifecycle.DriftHardwareFailure, sev: lifecycle.SeverityCritical, open: true,
		audit: []string{"reconcile.quarantine"}},
	{name: "5 Commissioning while active: warn only",
		change: func(s *site, _, sid string) error { return s.sim.RecommissionOutOfBand(context.Background(), sid) },
		state:  lifecycle.NodeActive, rule: lifecycle.DriftRecommissioned, sev: lifecycle.SeverityWarning, open: true},
	{name: "6 Deployed with a new IP: host follows",
		change: func(s *site, _, sid string) error { return s.sim.ChangeIPOutOfBand(context.Background(), sid) },
		state:  lifecycle.NodeActive, rule: lifecycle.DriftIPChanged, sev: lifecycle.SeverityInfo,
		check: func(t *testing.T, s *site, id, sid string) {
			m, err := s.client.Machine(context.Background(), sid)
			must(t, err)
			if h := s.node(id).Host; h != m.IPs[0] {
				t.Fatalf("host %s, MAAS has %v", h, m.IPs)
			}
		}},
	{name: "7 absent from MAAS while active: quarantine",
		change: func(s *site, _, sid string) error { return s.sim.DeleteOutOfBand(context.Background(), sid) },
		state:  lifecycle.NodeQuarantined, rule: lifecycle.DriftMachineDeleted, sev: lifecycle.SeverityCritical, open: true,
		audit: []string{"reconcile.quarantine"}},
	{name: "8 Deployed while retired: release and power off",
		prep: func(s *site, id, _ string) {
			s.move(id, lifecycle.NodeActive, lifecycle.NodeDraining, lifecycle.ActorDrainLifecycle, "drain-1")
			s.move(id, lifecycle.NodeDraining, lifecycle.NodeRetired, lifecycle.ActorDrainLifecycle, "")
		},
		change: touch, state: lifecycle.NodeRetired, rule: lifecycle.DriftRetiredDeployed, sev: lifecycle.SeverityInfo,
		audit: []string{"reconcile.release"},
		check: func(t *testing.T, s *site, _, sid string) {
			m, err := s.client.Machine(context.Background(), sid)
			must(t, err)
			if m.Status == lifecycle.MaasDeployed || m.PowerState != "off" {
				t.Fatalf("machine %s power %s, want released and off", m.Status, m.PowerState)
			}
		}},
}

func TestReconciliationRulesEndToEnd(t *testing.T) {
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			s := newSite(t, opts{webhooks: true, poll: 100 * time.Millisecond, resync: time.Hour})
			id, sid := s.activeNode("gpu-a1")
			if r.prep != nil {
				r.prep(s, id, sid)
			}
			must(t, r.change(s, id, sid))
			s.eventually(5*time.Second, "node reconciled with the change", func() bool { return reconciled(s, id, r) })
			s.assertRow(t, r, id, sid)
		})
	}
}

// reconciled: the node reached the row's state, its drift record shows
// the row's end, and no action is still under way.
func reconciled(s *site, id string, r row) bool {
	st := s.state(id)
	if s.node(id).Status != r.state || st.LastReconciledAt == nil || st.DriftRule != r.rule || st.DriftDetected != r.open {
		return false
	}
	return len(s.audits(id)) >= len(r.audit)
}

func (s *site) assertRow(t *testing.T, r row, id, sid string) {
	t.Helper()
	time.Sleep(150 * time.Millisecond) // let late hints land: nothing may change twice
	st := s.state(id)
	if got := s.node(id).Status; got != r.state {
		t.Fatalf("node %s, want %s", got, r.state)
	}
	if st.DriftRule != r.rule || st.DriftDetected != r.open || st.DriftSeverity != r.sev {
		t.Fatalf("drift record %+v, want rule %q severity %q open %v", st.Drift, r.rule, r.sev, r.open)
	}
	if join(s.audits(id)) != join(r.audit) {
		t.Fatalf("audit %v, want %v", s.audits(id), r.audit)
	}
	if r.rule != "" {
		if got := s.metric("maas_sidecar_drift_detected_total", "rule", string(r.rule), "severity", string(r.sev)); got != 1 {
			t.Fatalf("maas_sidecar_drift_detected_total{rule=%q} = %v, want 1", r.rule, got)
		}
		want := map[bool]float64{true: 1, false: 0}[r.open]
		if got := s.metric("maas_sidecar_drift_open", "site", siteID, "rule", string(r.rule)); got != want {
			t.Fatalf("maas_sidecar_drift_open{rule=%q} = %v, want %v", r.rule, got, want)
		}
	} else if st.DriftRule != "" {
		t.Fatalf("unexpected drift %+v", st.Drift)
	}
	if got := s.metric("maas_sidecar_nodes", "site", siteID, "state", string(r.state)); got != 1 {
		t.Fatalf("maas_sidecar_nodes{state=%q} = %v, want 1", r.state, got)
	}
	if s.wakes.count("machine:"+sid) == 0 {
		t.Fatal("the feed never woke the machine's runs")
	}
	if r.check != nil {
		r.check(t, s, id, sid)
	}
}
