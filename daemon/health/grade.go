package health

import (
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// grade gathers one check's findings over every GPU: the worst verdict,
// the strongest action and the reasons, in the order found.
type grade struct {
	name    string
	verdict lifecycle.HealthVerdict
	action  lifecycle.HealthAction
	reasons []string
}

func newGrade(name string) *grade {
	return &grade{name: name, verdict: lifecycle.HealthHealthy, action: lifecycle.HealthActNone}
}

// add records a finding.
func (g *grade) add(v lifecycle.HealthVerdict, a lifecycle.HealthAction, reason string) {
	g.verdict = g.verdict.Worst(v)
	g.action = g.action.Stronger(a)
	g.reasons = append(g.reasons, reason)
}

// note records a reason that changes nothing.
func (g *grade) note(reason string) { g.reasons = append(g.reasons, reason) }

// unknown records a reading that was not taken.
func (g *grade) unknown(reason string) {
	g.add(lifecycle.HealthUnknown, lifecycle.HealthActNone, reason)
}

func (g *grade) check() lifecycle.HealthCheck {
	return lifecycle.HealthCheck{Name: g.name, Verdict: g.verdict, Action: g.action, Reason: strings.Join(g.reasons, "; ")}
}

// Summary is a node's verdict over its checks: the worst verdict, the
// strongest action, and the reasons of the checks at that verdict.
func Summary(checks []lifecycle.HealthCheck) (lifecycle.HealthVerdict, lifecycle.HealthAction, string) {
	v, a := lifecycle.HealthHealthy, lifecycle.HealthActNone
	for _, c := range checks {
		v, a = v.Worst(c.Verdict), a.Stronger(c.Action)
	}
	var why []string
	for _, c := range checks {
		if c.Verdict == v && v != lifecycle.HealthHealthy {
			why = append(why, c.Name+": "+c.Reason)
		}
	}
	return v, a, strings.Join(why, "; ")
}
