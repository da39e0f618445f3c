package lifecycle

import "slices"

// ExpectedMaas is what MAAS should show for a node in a given lifecycle
// state (seed 000 §6.2). It is an expectation used by drift detection, not a
// rule that blocks transitions.
type ExpectedMaas struct {
	NoneRequired bool         // bootstrap_issued: no MAAS machine needed
	Statuses     []MaasStatus // acceptable MAAS statuses
	AnyFailed    bool         // any MAAS failure state (and Broken) is acceptable
	AbsentOK     bool         // the machine may be missing from MAAS
	PoweredOffOK bool         // a powered-off machine is acceptable
}

var expectedMaas = map[NodeState]ExpectedMaas{
	NodeBootstrapIssued: {NoneRequired: true},
	NodeEnrolling: {Statuses: []MaasStatus{MaasNew, MaasCommissioning, MaasReady,
		MaasAllocated, MaasDeploying, MaasDeployed}},
	NodeActive:      {Statuses: []MaasStatus{MaasDeployed}},
	NodeOffline:     {Statuses: []MaasStatus{MaasDeployed}},
	NodeQuarantined: {Statuses: []MaasStatus{MaasReady, MaasBroken, MaasDeployed}, AnyFailed: true, AbsentOK: true},
	NodeDraining:    {Statuses: []MaasStatus{MaasDeployed, MaasReady}},
	NodeRetired:     {Statuses: []MaasStatus{MaasDeployed, MaasReady}, PoweredOffOK: true},
	NodeRemoving:    {Statuses: []MaasStatus{MaasReady}, AbsentOK: true, PoweredOffOK: true},
	NodeDeleted:     {NoneRequired: true, AbsentOK: true},
	// A node waiting for a part may be powered off for the swap.
	NodeRepairRequired: {Statuses: []MaasStatus{MaasReady, MaasBroken, MaasDeployed}, AnyFailed: true, PoweredOffOK: true},
}

// ExpectedMaasFor returns the expectation for node state n.
func ExpectedMaasFor(n NodeState) ExpectedMaas { return expectedMaas[n] }

// Observed is a point-in-time view of a MAAS machine. Present is false when
// the machine is absent from MAAS.
type Observed struct {
	Present    bool
	Status     MaasStatus
	PowerState string // on, off, unknown, error
}

// Matches reports whether observed MAAS state o meets the expectation.
// Deleted nodes are retained in MAAS or not by policy, so anything matches.
func (e ExpectedMaas) Matches(o Observed) bool {
	if e.NoneRequired {
		return true
	}
	if !o.Present {
		return e.AbsentOK
	}
	if e.PoweredOffOK && o.PowerState == "off" {
		return true
	}
	if e.AnyFailed && o.Status.Failed() {
		return true
	}
	return slices.Contains(e.Statuses, o.Status)
}
