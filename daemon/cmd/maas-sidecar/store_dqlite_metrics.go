//go:build dqlite

package main

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/metrics/raft"
	"github.com/gpuaas/maas-sidecar/daemon/store/dqlite"
)

// raftSource samples the dqlite cluster for the Raft metrics.
type raftSource struct{ n *dqlite.Node }

var _ raft.Source = raftSource{}

func (s raftSource) Sample(ctx context.Context) (raft.Sample, error) {
	out := raft.Sample{Self: s.n.Address()}
	leader, err := s.n.Leader(ctx)
	if err != nil {
		return out, err
	}
	members, err := s.n.Members(ctx)
	if err != nil {
		return out, err
	}
	out.Leader = leader
	for _, m := range members {
		out.Members = append(out.Members, raft.Member{Address: m.Address, Role: m.Role})
	}
	return out, nil
}

// raftMetrics registers the Raft metrics of node n with reg and returns
// the poller that keeps them, to run until the daemon stops.
func raftMetrics(n *dqlite.Node, log *slog.Logger) func(prometheus.Registerer) func(context.Context) error {
	return func(reg prometheus.Registerer) func(context.Context) error {
		return raft.New(raft.Options{Source: raftSource{n}, Registerer: reg, Logger: log.With("component", "store")}).Run
	}
}
