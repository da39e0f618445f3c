package cli

import "github.com/gpuaas/maas-sidecar/daemon/api/answer"

// runVerb is a verb every kind of run has: maas-sidecar KIND VERB ...
type runVerb struct {
	name string
	make func(k *runKind) command
}

// runVerbs are the run verbs, each made for every kind in runKinds: read
// (get, list, watch) and the seven recovery actions of answer.Recoveries.
func runVerbs() []runVerb {
	vs := []runVerb{{"get", runGet}, {"list", runList}, {"watch", runWatch}}
	for _, rc := range answer.Recoveries {
		vs = append(vs, runVerb{rc.Path, func(k *runKind) command { return runRecover(k, rc.Path) }})
	}
	return vs
}

func init() {
	for _, k := range runKinds {
		for _, v := range runVerbs() {
			commands[k.Name+" "+v.name] = v.make(k)
		}
	}
}
