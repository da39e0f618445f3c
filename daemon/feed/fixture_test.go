package feed_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// activeNode seeds a Deployed machine and an active node bound to it, as
// a finished onboarding leaves them; it returns the node id and system id.
func (s *site) activeNode(hostname string) (string, string) {
	s.t.Helper()
	sid, err := s.sim.AddMachine(maassim.HostSpec{}, hostname, maassim.StatusDeployed)
	must(s.t, err)
	return s.bind(hostname, sid), sid
}

// bind creates an active node bound to machine sid.
func (s *site) bind(hostname, sid string) string {
	s.t.Helper()
	ctx := context.Background()
	m, err := s.client.Machine(ctx, sid)
	must(s.t, err)
	id := "node-" + hostname
	must(s.t, s.store.CreateNode(ctx, lifecycle.Node{ID: id, SiteID: siteID, Hostname: hostname, SKU: "mi300x", Status: lifecycle.NodeEnrolling}))
	_, err = s.store.UpdateNode(ctx, id, func(n *lifecycle.Node) error {
		now := time.Now()
		n.MaasSystemID, n.Host, n.EnrolledAt = sid, m.IPs[0], &now
		return nil
	})
	must(s.t, err)
	s.move(id, lifecycle.NodeEnrolling, lifecycle.NodeActive, lifecycle.ActorOnboarding, "")
	must(s.t, s.store.TouchNodeContact(ctx, id))
	return id
}

func (s *site) move(id string, from, to lifecycle.NodeState, a lifecycle.Actor, task string) {
	s.t.Helper()
	_, err := s.store.TransitionNode(context.Background(), lifecycle.NodeTransition{NodeID: id, From: from, To: to,
		Context: lifecycle.TransitionContext{Actor: a, TaskID: task}})
	must(s.t, err)
}

func (s *site) node(id string) lifecycle.Node {
	n, err := s.store.GetNode(context.Background(), id)
	must(s.t, err)
	return n
}

func (s *site) state(id string) lifecycle.NodeMaasState {
	st, err := s.store.GetNodeMaasState(context.Background(), id)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return lifecycle.NodeMaasState{}
	}
	must(s.t, err)
	return st
}

// eventually polls cond until it holds or within passes.
func (s *site) eventually(within time.Duration, what string, cond func() bool) {
	s.t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			s.t.Fatalf("not within %s: %s", within, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitState waits for the node to reach st.
func (s *site) waitState(id string, st lifecycle.NodeState, within time.Duration) {
	s.t.Helper()
	s.eventually(within, fmt.Sprintf("node %s %s", id, st), func() bool { return s.node(id).Status == st })
}

// metric returns the value of the series name{labels}; 0 when absent.
func (s *site) metric(name string, labels ...string) float64 {
	v, _ := s.series(name, labels...)
	return v
}

// has reports whether the series name{labels} exists.
func (s *site) has(name string, labels ...string) bool {
	_, ok := s.series(name, labels...)
	return ok
}

func (s *site) series(name string, labels ...string) (float64, bool) {
	s.t.Helper()
	fams, err := s.reg.Gather()
	must(s.t, err)
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if hasLabels(m, labels) {
				return value(m), true
			}
		}
	}
	return 0, false
}

func hasLabels(m *dto.Metric, kv []string) bool {
	have := map[string]string{}
	for _, l := range m.GetLabel() {
		have[l.GetName()] = l.GetValue()
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if have[kv[i]] != kv[i+1] {
			return false
		}
	}
	return true
}

func value(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Histogram != nil:
		return float64(m.Histogram.GetSampleCount())
	}
	return 0
}

// audits returns the audit actions recorded against a node.
func (s *site) audits(id string) []string {
	es, err := s.store.ListAudit(context.Background(), lifecycle.AuditFilter{TargetID: id})
	must(s.t, err)
	var out []string
	for _, e := range es {
		out = append(out, e.Action)
	}
	return out
}

func join(xs []string) string { return strings.Join(xs, ",") }
