package raft_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/goleak"

	"github.com/gpuaas/maas-sidecar/daemon/metrics/raft"
)

// script is a Source that answers its samples in turn, then the last
// one again; a sample with Err set fails.
type script struct {
	mu      sync.Mutex
	steps   []step
	sampled int
	asked   chan struct{} // one send per sample, when not nil
}

type step struct {
	raft.Sample
	Err error
}

func (s *script) Sample(context.Context) (raft.Sample, error) {
	s.mu.Lock()
	st := s.steps[min(s.sampled, len(s.steps)-1)]
	s.sampled++
	s.mu.Unlock()
	if s.asked != nil {
		s.asked <- struct{}{}
	}
	return st.Sample, st.Err
}

const self = "10.0.0.1:9001"

// cluster is a sample of three voters with this member and leader.
func cluster(leader string, selfRole string) step {
	return step{Sample: raft.Sample{Self: self, Leader: leader, Members: []raft.Member{
		{self, selfRole}, {"10.0.0.2:9001", "voter"}, {"10.0.0.3:9001", "voter"}}}}
}

var lost = step{Err: errors.New("no available dqlite leader server found")}

var names = []string{"maas_sidecar_store_raft_role", "maas_sidecar_store_raft_leader_changes_total",
	"maas_sidecar_store_quorum", "maas_sidecar_store_cluster_members"}

const headers = `# HELP maas_sidecar_store_cluster_members Members of the store's cluster by role, as the leader last listed them.
# TYPE maas_sidecar_store_cluster_members gauge
# HELP maas_sidecar_store_quorum 1 while this member reaches a Raft leader (the cluster has a quorum), 0 otherwise.
# TYPE maas_sidecar_store_quorum gauge
# HELP maas_sidecar_store_raft_leader_changes_total Changes of the Raft leader's address that this member observed (sampled every few seconds; a lost and regained quorum under the same leader is no change).
# TYPE maas_sidecar_store_raft_leader_changes_total counter
# HELP maas_sidecar_store_raft_role 1 for this member's current Raft role (leader, voter, stand-by, spare, none), 0 for the others; kept at the last role seen while no leader answers.
# TYPE maas_sidecar_store_raft_role gauge
`

// expo is the exposition of the four metrics.
func expo(role string, changes, quorum, voters, standbys, spares int) string {
	var b strings.Builder
	b.WriteString(headers)
	for _, r := range []struct {
		name string
		n    int
	}{{"spare", spares}, {"stand-by", standbys}, {"voter", voters}} {
		b.WriteString(`maas_sidecar_store_cluster_members{role="` + r.name + `"} ` + itoa(r.n) + "\n")
	}
	b.WriteString("maas_sidecar_store_quorum " + itoa(quorum) + "\n")
	b.WriteString("maas_sidecar_store_raft_leader_changes_total " + itoa(changes) + "\n")
	for _, r := range []string{"leader", "none", "spare", "stand-by", "voter"} {
		v := 0
		if r == role {
			v = 1
		}
		b.WriteString(`maas_sidecar_store_raft_role{role="` + r + `"} ` + itoa(v) + "\n")
	}
	return b.String()
}

func itoa(n int) string { return string(rune('0' + n)) }

// Each sequence of samples leaves the metrics an operator would expect:
// the role from the leader's list, a change counted only between two
// different leaders, the quorum at 0 while no leader answers with the
// role and members kept as last seen.
func TestOnce(t *testing.T) {
	other, third := "10.0.0.2:9001", "10.0.0.3:9001"
	cases := []struct {
		name  string
		steps []step
		want  string
	}{
		{"nothing sampled yet", nil, expo("none", 0, 0, 0, 0, 0)},
		{"follower", []step{cluster(other, "voter")}, expo("voter", 0, 1, 3, 0, 0)},
		{"leader", []step{cluster(self, "voter")}, expo("leader", 0, 1, 3, 0, 0)},
		{"stand-by", []step{cluster(other, "stand-by")}, expo("stand-by", 0, 1, 2, 1, 0)},
		{"removed", []step{{Sample: raft.Sample{Self: self, Leader: other, Members: []raft.Member{{other, "voter"}}}}},
			expo("none", 0, 1, 1, 0, 0)},
		{"two changes", []step{cluster(other, "voter"), cluster(self, "voter"), cluster(self, "voter"), cluster(third, "voter")},
			expo("voter", 2, 1, 3, 0, 0)},
		{"quorum lost", []step{cluster(self, "voter"), lost}, expo("leader", 0, 0, 3, 0, 0)},
		{"no leader named", []step{cluster(other, "voter"), {Sample: raft.Sample{Self: self}}}, expo("voter", 0, 0, 3, 0, 0)},
		{"lost then back under the same leader", []step{cluster(other, "voter"), lost, cluster(other, "voter")},
			expo("voter", 0, 1, 3, 0, 0)},
		{"lost then back under another", []step{cluster(other, "voter"), lost, cluster(self, "voter")},
			expo("leader", 1, 1, 3, 0, 0)},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			p := raft.New(raft.Options{Source: &script{steps: tt.steps}, Registerer: reg})
			for range tt.steps {
				p.Once(context.Background())
			}
			if err := testutil.GatherAndCompare(reg, strings.NewReader(tt.want), names...); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Run samples at once, then once per interval of its clock, and returns
// nil, leaving no goroutine, when its context ends.
func TestRun(t *testing.T) {
	defer goleak.VerifyNone(t)
	clock := clockwork.NewFakeClock()
	src := &script{steps: []step{cluster("10.0.0.2:9001", "voter"), cluster(self, "voter")}, asked: make(chan struct{})}
	reg := prometheus.NewRegistry()
	p := raft.New(raft.Options{Source: src, Registerer: reg, Interval: 5 * time.Second, Clock: clock})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- p.Run(ctx) }()
	<-src.asked // the first sample, at once
	clock.Advance(4 * time.Second)
	select {
	case <-src.asked:
		t.Fatal("a sample before the interval passed")
	case <-time.After(50 * time.Millisecond):
	}
	clock.Advance(time.Second)
	<-src.asked // the second, under another leader
	clock.Advance(5 * time.Second)
	<-src.asked // the third: the second's metrics are set
	if got := value(t, reg, "maas_sidecar_store_raft_leader_changes_total"); got != 1 {
		t.Errorf("leader changes after samples under two leaders: %v, want 1", got)
	}
	if got := value(t, reg, "maas_sidecar_store_quorum"); got != 1 {
		t.Errorf("quorum %v, want 1", got)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
}

// value gathers the one series of metric name from reg.
func value(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			m := mf.GetMetric()[0]
			return m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}
