package reconcile

import (
	"slices"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Action is what a verdict asks the reconciler to do.
type Action string

// Reconciliation actions.
const (
	ActNone            Action = ""
	ActQuarantine      Action = "quarantine"
	ActUpdateHost      Action = "update_host"
	ActReseedHWSync    Action = "reseed_hw_sync"
	ActReleasePowerOff Action = "release_power_off"
	// ActEnableHWSync is no verdict's action but the step of
	// ActReseedHWSync that turns enable_hw_sync back on in MAAS (counted
	// apart in the actions metric).
	ActEnableHWSync Action = "enable_hw_sync"
)

// changesMAAS reports whether the action changes the machine in MAAS, so
// that what was read of MAAS before it is out of date.
func (a Action) changesMAAS() bool { return a == ActReleasePowerOff }

// Observation is one machine as MAAS showed it (the domain's type, which
// the change feed builds).
type Observation = lifecycle.Observation

// Verdict is the outcome of the rules for one node: the drift found (Rule
// empty when the node and MAAS agree) and the action to take.
type Verdict struct {
	Rule     lifecycle.DriftRule
	Severity lifecycle.DriftSeverity
	Action   Action
	Details  map[string]string
}

func drift(r lifecycle.DriftRule, a Action, o Observation, expected string) Verdict {
	d := map[string]string{"rule": string(r), "expected": expected, "maas_status": "absent"}
	if o.Present {
		d["maas_status"], d["maas_power_state"] = o.Machine.Status.String(), o.Machine.PowerState
	}
	return Verdict{Rule: r, Severity: Severity(r), Action: a, Details: d}
}

// Evaluate applies the rules of seed 001 §6.4 to node n and its machine.
// Only active, offline and retired nodes have rules; the others belong to
// their runs or to an admin.
func Evaluate(n lifecycle.Node, o Observation, site lifecycle.Site, p lifecycle.SitePolicy, now time.Time) Verdict {
	switch n.Status {
	case lifecycle.NodeActive, lifecycle.NodeOffline:
		return evalInService(n, o, site, p, now)
	case lifecycle.NodeRetired:
		return evalRetired(o)
	}
	return Verdict{}
}

func evalInService(n lifecycle.Node, o Observation, site lifecycle.Site, p lifecycle.SitePolicy, now time.Time) Verdict {
	m := o.Machine
	switch {
	case !o.Present:
		return drift(lifecycle.DriftMachineDeleted, ActQuarantine, o, "Deployed")
	case m.Status == lifecycle.MaasDeployed:
		return evalDeployed(n, o, site, p, now)
	case m.Status.Failed():
		return drift(lifecycle.DriftHardwareFailure, ActQuarantine, o, "Deployed")
	case released(m.Status):
		return drift(lifecycle.DriftReleased, ActQuarantine, o, "Deployed")
	case m.Status == lifecycle.MaasDeploying || m.Status == lifecycle.MaasAllocated:
		return drift(lifecycle.DriftRedeployed, ActQuarantine, o, "Deployed")
	case m.Status == lifecycle.MaasCommissioning || m.Status == lifecycle.MaasTesting:
		return drift(lifecycle.DriftRecommissioned, ActNone, o, "Deployed")
	}
	return drift(lifecycle.DriftUnexpectedMaasState, ActNone, o, "Deployed")
}

func released(s lifecycle.MaasStatus) bool {
	switch s {
	case lifecycle.MaasReady, lifecycle.MaasReleasing, lifecycle.MaasDiskErasing, lifecycle.MaasNew, lifecycle.MaasRetired:
		return true
	}
	return false
}

// evalDeployed: the machine is Deployed, as it should be; what is left
// is the agent (offline), the address, hardware sync and power.
func evalDeployed(n lifecycle.Node, o Observation, site lifecycle.Site, p lifecycle.SitePolicy, now time.Time) Verdict {
	m := o.Machine
	switch {
	case n.Status == lifecycle.NodeOffline:
		return drift(lifecycle.DriftAgentNotPolling, ActNone, o, "agent polling")
	case n.Host != "" && len(m.IPs) > 0 && !slices.Contains(m.IPs, n.Host):
		return ipChanged(n, o, site.DeploySSHIface)
	case p.RequireHWSync && (!m.HWSyncEnabled || !m.SyncHealthy(now)):
		v := drift(lifecycle.DriftHWSyncUnhealthy, ActReseedHWSync, o, "hardware sync healthy")
		v.Details["hw_sync_enabled"] = map[bool]string{true: "true", false: "false"}[m.HWSyncEnabled]
		return v
	case m.PowerState == "off":
		return drift(lifecycle.DriftPoweredOff, ActNone, o, "power on")
	}
	return Verdict{}
}

// ipChanged: the node's host is no longer among the machine's addresses;
// the new host is resolved as onboarding resolves it (the site's
// deploy_ssh_iface, else the first IP). A machine rebuilt from the store
// has no interfaces: the drift is recorded, and the next machine read
// from MAAS moves the host.
func ipChanged(n lifecycle.Node, o Observation, iface string) Verdict {
	if o.Machine.NICs == nil {
		return drift(lifecycle.DriftIPChanged, ActNone, o, n.Host)
	}
	v := drift(lifecycle.DriftIPChanged, ActUpdateHost, o, n.Host)
	addr, source := lifecycle.DeployAddress(o.Machine.NICs, iface, o.Machine)
	v.Details["old_host"], v.Details["new_host"], v.Details["new_host_source"] = n.Host, addr, source
	return v
}

// evalRetired: a retired node must not keep a deployed, powered machine.
func evalRetired(o Observation) Verdict {
	m := o.Machine
	if o.Present && (m.Status == lifecycle.MaasDeployed || m.PowerState == "on") {
		return drift(lifecycle.DriftRetiredDeployed, ActReleasePowerOff, o, "released and powered off")
	}
	return Verdict{}
}

// Severity is the severity a rule always has.
func Severity(r lifecycle.DriftRule) lifecycle.DriftSeverity {
	switch {
	case r.Quarantines():
		return lifecycle.SeverityCritical
	case r == lifecycle.DriftIPChanged || r == lifecycle.DriftRetiredDeployed:
		return lifecycle.SeverityInfo
	}
	return lifecycle.SeverityWarning
}
