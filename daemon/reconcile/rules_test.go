package reconcile

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestEvaluate(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	fresh, next := now.Add(-time.Minute), now.Add(14*time.Minute)
	stale, staleNext := now.Add(-time.Hour), now.Add(-45*time.Minute)
	deployed := lifecycle.Machine{Status: lifecycle.MaasDeployed, PowerState: "on", IPs: []string{"10.0.0.5"},
		HWSyncEnabled: true, LastSync: &fresh, NextSync: &next,
		NICs: []lifecycle.NIC{{Name: "eno8303", Links: []lifecycle.NICLink{{IP: "10.0.0.5"}}}}}
	with := func(f func(*lifecycle.Machine)) Observation {
		m := deployed
		f(&m)
		return Observation{Present: true, Machine: m}
	}
	ok := Observation{Present: true, Machine: deployed}
	p := lifecycle.DefaultSitePolicy("s1")
	cases := []struct {
		name   string
		node   lifecycle.NodeState
		obs    Observation
		rule   lifecycle.DriftRule
		action Action
	}{
		{"deployed active", lifecycle.NodeActive, ok, "", ActNone},
		{"deployed offline", lifecycle.NodeOffline, ok, lifecycle.DriftAgentNotPolling, ActNone},
		{"ready active", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasReady }), lifecycle.DriftReleased, ActQuarantine},
		{"releasing offline", lifecycle.NodeOffline, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasReleasing }), lifecycle.DriftReleased, ActQuarantine},
		{"broken active", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasBroken }), lifecycle.DriftHardwareFailure, ActQuarantine},
		{"failed testing active", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasFailedTesting }), lifecycle.DriftHardwareFailure, ActQuarantine},
		{"commissioning active", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasCommissioning }), lifecycle.DriftRecommissioned, ActNone},
		{"deploying active", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasDeploying }), lifecycle.DriftRedeployed, ActQuarantine},
		{"new IP", lifecycle.NodeActive, with(func(m *lifecycle.Machine) {
			m.IPs, m.NICs = []string{"10.0.0.9"}, []lifecycle.NIC{{Name: "eno8303", Links: []lifecycle.NICLink{{IP: "10.0.0.9"}}}}
		}), lifecycle.DriftIPChanged, ActUpdateHost},
		{"new IP, interfaces unknown", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.IPs, m.NICs = []string{"10.0.0.9"}, nil }), lifecycle.DriftIPChanged, ActNone},
		{"absent active", lifecycle.NodeActive, Observation{}, lifecycle.DriftMachineDeleted, ActQuarantine},
		{"absent offline", lifecycle.NodeOffline, Observation{}, lifecycle.DriftMachineDeleted, ActQuarantine},
		{"sync disabled", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.HWSyncEnabled = false }), lifecycle.DriftHWSyncUnhealthy, ActReseedHWSync},
		{"sync stale", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.LastSync, m.NextSync = &stale, &staleNext }), lifecycle.DriftHWSyncUnhealthy, ActReseedHWSync},
		{"powered off", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.PowerState = "off" }), lifecycle.DriftPoweredOff, ActNone},
		{"rescue mode", lifecycle.NodeActive, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasRescueMode }), lifecycle.DriftUnexpectedMaasState, ActNone},
		{"retired deployed", lifecycle.NodeRetired, ok, lifecycle.DriftRetiredDeployed, ActReleasePowerOff},
		{"retired ready but on", lifecycle.NodeRetired, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasReady }), lifecycle.DriftRetiredDeployed, ActReleasePowerOff},
		{"retired ready off", lifecycle.NodeRetired, with(func(m *lifecycle.Machine) { m.Status, m.PowerState = lifecycle.MaasReady, "off" }), "", ActNone},
		{"retired absent", lifecycle.NodeRetired, Observation{}, "", ActNone},
		{"quarantined ready", lifecycle.NodeQuarantined, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasReady }), "", ActNone},
		{"enrolling ready (a run's)", lifecycle.NodeEnrolling, with(func(m *lifecycle.Machine) { m.Status = lifecycle.MaasReady }), "", ActNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Evaluate(lifecycle.Node{Status: c.node, Host: "10.0.0.5"}, c.obs, lifecycle.Site{DeploySSHIface: "eno8303"}, p, now)
			if diff := cmp.Diff([]any{c.rule, c.action}, []any{v.Rule, v.Action}); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			if v.Rule != "" && v.Severity != Severity(v.Rule) {
				t.Fatalf("severity %s for %s", v.Severity, v.Rule)
			}
			if (v.Action == ActQuarantine) != v.Rule.Quarantines() {
				t.Fatalf("rule %s quarantines=%v but action %q", v.Rule, v.Rule.Quarantines(), v.Action)
			}
		})
	}
}

// A changed address is resolved as onboarding resolves it: the site's
// deploy_ssh_iface first, the first MAAS IP when that NIC has none.
func TestIPChangedFollowsDeploySSHIface(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	m := lifecycle.Machine{Status: lifecycle.MaasDeployed, PowerState: "on", IPs: []string{"10.16.0.9", "10.99.0.7"},
		NICs: []lifecycle.NIC{{Name: "eno8303", Links: []lifecycle.NICLink{{IP: "10.16.0.9"}}},
			{Name: "ens1f0np0", Links: []lifecycle.NICLink{{IP: "10.99.0.7"}}}}}
	p := lifecycle.DefaultSitePolicy("s1")
	for iface, want := range map[string]string{"ens1f0np0": "10.99.0.7", "ens2f0np0": "10.16.0.9"} {
		t.Run(iface, func(t *testing.T) {
			v := Evaluate(lifecycle.Node{Status: lifecycle.NodeActive, Host: "10.99.0.3"}, Observation{Present: true, Machine: m},
				lifecycle.Site{DeploySSHIface: iface}, p, now)
			if v.Action != ActUpdateHost || v.Details["new_host"] != want || v.Details["old_host"] != "10.99.0.3" {
				t.Fatalf("verdict %s, details %v; want new_host %s", v.Action, v.Details, want)
			}
		})
	}
}

func TestApplyVerdictKeepsQuarantineDriftForTheAdmin(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var s lifecycle.NodeMaasState
	if !applyVerdict(&s, Verdict{Rule: lifecycle.DriftReleased, Severity: lifecycle.SeverityCritical}, t0) {
		t.Fatal("a new drift must open")
	}
	if applyVerdict(&s, Verdict{}, t0.Add(time.Minute)) || !s.DriftDetected {
		t.Fatal("a quarantine drift healed on its own")
	}
	s = lifecycle.NodeMaasState{}
	applyVerdict(&s, Verdict{Rule: lifecycle.DriftRecommissioned, Severity: lifecycle.SeverityWarning}, t0)
	if applyVerdict(&s, Verdict{Rule: lifecycle.DriftRecommissioned}, t0.Add(time.Minute)) {
		t.Fatal("the same drift opened twice")
	}
	applyVerdict(&s, Verdict{}, t0.Add(2*time.Minute))
	if s.DriftDetected || s.DriftResolvedAt == nil || !s.DriftResolvedAt.Equal(t0.Add(2*time.Minute)) || s.DriftRule != lifecycle.DriftRecommissioned {
		t.Fatalf("a warning drift must heal and keep its history: %+v", s.Drift)
	}
}
