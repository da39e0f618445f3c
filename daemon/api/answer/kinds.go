package answer

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// RunKind is a kind of run as the operator surface names it.
type RunKind struct {
	// Kind is the run kind of the lifecycle.
	Kind lifecycle.RunKind
	// Name is the key a run is answered under ("onboarding"), the word in
	// messages and the command line's verb.
	Name string
	// Collection is the routes' path segment and a list's key ("onboardings").
	Collection string
}

// The kinds of run, each with the same read and recovery routes.
var (
	Onboarding   = RunKind{Kind: lifecycle.RunOnboarding, Name: "onboarding", Collection: "onboardings"}
	Decommission = RunKind{Kind: lifecycle.RunDecommission, Name: "decommission", Collection: "decommissions"}
	Repair       = RunKind{Kind: lifecycle.RunRepair, Name: "repair", Collection: "repairs"}
)

// RunKinds are every kind of run, in the order the surfaces list them.
var RunKinds = []RunKind{Onboarding, Decommission, Repair}

// KindOf returns the RunKind of k; false for a kind no surface serves.
func KindOf(k lifecycle.RunKind) (RunKind, bool) {
	for _, rk := range RunKinds {
		if rk.Kind == k {
			return rk, true
		}
	}
	return RunKind{}, false
}

// Recovery is one recovery route of seed 001 §4.15: the last path element
// of POST /<collection>/{id}/<path> (and the command line's verb) and the
// operator action it takes.
type Recovery struct {
	Path   string
	Action lifecycle.Action
}

// Recoveries are the seven recovery actions, in the seed's order.
var Recoveries = []Recovery{
	{"retry", lifecycle.ActionRetryStage},
	{"resume", lifecycle.ActionResume},
	{"rerun", lifecycle.ActionRerun},
	{"restart-clean", lifecycle.ActionRestartClean},
	{"cancel", lifecycle.ActionCancel},
	{"adopt", lifecycle.ActionAdoptObservedState},
	{"mark-manual-intervention", lifecycle.ActionMarkManual},
}

// RecoveryAction returns the action of recovery path p; false for none.
func RecoveryAction(p string) (lifecycle.Action, bool) {
	for _, r := range Recoveries {
		if r.Path == p {
			return r.Action, true
		}
	}
	return "", false
}
