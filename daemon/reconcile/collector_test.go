package reconcile_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
)

// inventory is a store holding one site and its runs.
type inventory struct{ runs []lifecycle.Run }

func (inventory) ListSites(context.Context) ([]lifecycle.Site, error) {
	return []lifecycle.Site{{ID: "s1", Status: lifecycle.SiteActive}}, nil
}

func (inventory) GetSitePolicy(_ context.Context, id string) (lifecycle.SitePolicy, error) {
	return lifecycle.DefaultSitePolicy(id), nil
}

func (inventory) ListNodes(context.Context, lifecycle.NodeFilter) ([]lifecycle.Node, error) {
	return nil, nil
}

func (i inventory) ListRuns(context.Context, lifecycle.RunFilter) ([]lifecycle.Run, error) {
	return i.runs, nil
}

func (inventory) ListNodeMaasStates(context.Context, lifecycle.MaasStateFilter) ([]lifecycle.NodeMaasState, error) {
	return nil, nil
}

// Runs in a stage are counted by site and stage, and the oldest start of
// each stage is exported; ended runs and runs not started are not.
func TestCollectorStagesOfActiveRuns(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	at := func(d time.Duration) *time.Time { x := t0.Add(d); return &x }
	run := func(st lifecycle.JobState, stage lifecycle.Stage, started *time.Time) lifecycle.Run {
		return lifecycle.Run{Kind: lifecycle.RunOnboarding, SiteID: "s1", Status: st, CurrentStage: stage, StageStartedAt: started}
	}
	inv := inventory{runs: []lifecycle.Run{
		run(lifecycle.JobRunning, lifecycle.StageWaitForDeployed, at(10*time.Second)),
		run(lifecycle.JobRunning, lifecycle.StageWaitForDeployed, at(0)),
		run(lifecycle.JobCompensating, lifecycle.StageCommissionNode, at(5*time.Second)),
		run(lifecycle.JobCompleted, lifecycle.StageCommissionNode, at(0)),
		run(lifecycle.JobPending, lifecycle.StageLoadSiteConfig, nil),
	}}
	reg := prometheus.NewRegistry()
	reg.MustRegister(&reconcile.Collector{Store: inv, Clock: clockwork.NewFakeClockAt(t0.Add(time.Minute))})
	want := `
# HELP maas_sidecar_stage_active_runs Running or compensating runs by site and current stage.
# TYPE maas_sidecar_stage_active_runs gauge
maas_sidecar_stage_active_runs{site="s1",stage="commission_node"} 1
maas_sidecar_stage_active_runs{site="s1",stage="wait_for_deployed"} 2
# HELP maas_sidecar_stage_oldest_start_timestamp_seconds Unix start time of the oldest active attempt of a stage, by site and stage.
# TYPE maas_sidecar_stage_oldest_start_timestamp_seconds gauge
maas_sidecar_stage_oldest_start_timestamp_seconds{site="s1",stage="commission_node"} 1.700000005e+09
maas_sidecar_stage_oldest_start_timestamp_seconds{site="s1",stage="wait_for_deployed"} 1.7e+09
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"maas_sidecar_stage_active_runs", "maas_sidecar_stage_oldest_start_timestamp_seconds"); err != nil {
		t.Fatal(err)
	}
}
