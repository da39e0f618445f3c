package reconcile

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func unix(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// site exports one site's nodes, open drift, contact age and policy.
func (c *Collector) site(ctx context.Context, ch chan<- prometheus.Metric, siteID string, now time.Time) error {
	p, err := c.Store.GetSitePolicy(ctx, siteID)
	if err != nil {
		return err
	}
	nodes, err := c.Store.ListNodes(ctx, lifecycle.NodeFilter{SiteID: siteID})
	if err != nil {
		return err
	}
	counts := map[lifecycle.NodeState]int{}
	age := 0.0
	for _, n := range nodes {
		counts[n.Status]++
		if n.Status == lifecycle.NodeActive || n.Status == lifecycle.NodeOffline {
			age = max(age, now.Sub(lastContact(n)).Seconds())
		}
	}
	for _, st := range lifecycle.NodeStates {
		gauge(ch, descNodes, float64(counts[st]), siteID, string(st))
	}
	gauge(ch, descContact, age, siteID)
	gauge(ch, descOffLimit, float64(p.HeartbeatOfflineSeconds), siteID)
	for _, st := range append(append([]lifecycle.Stage{}, lifecycle.OnboardingStages...), lifecycle.DecommissionStages...) {
		if key := lifecycle.SpecOf(st).Timeout; key != "" {
			gauge(ch, descTimeout, p.TimeoutFor(key).Seconds(), siteID, string(st))
		}
	}
	return c.drift(ctx, ch, siteID)
}

func (c *Collector) drift(ctx context.Context, ch chan<- prometheus.Metric, siteID string) error {
	open, err := c.Store.ListNodeMaasStates(ctx, lifecycle.MaasStateFilter{SiteID: siteID, DriftOnly: true})
	if err != nil {
		return err
	}
	counts := map[lifecycle.DriftRule]int{}
	for _, s := range open {
		counts[s.DriftRule]++
	}
	for _, r := range lifecycle.DriftRules {
		gauge(ch, descDrift, float64(counts[r]), siteID, string(r), string(Severity(r)))
	}
	return nil
}

type stageKey struct{ site, stage string }

// runs exports runs by kind and status, and the oldest start and the
// number of runs of each active stage.
func (c *Collector) runs(ctx context.Context, ch chan<- prometheus.Metric) error {
	runs, err := c.Store.ListRuns(ctx, lifecycle.RunFilter{})
	if err != nil {
		return err
	}
	type ks struct {
		kind   lifecycle.RunKind
		status lifecycle.JobState
	}
	counts := map[ks]int{}
	oldest := map[stageKey]time.Time{}
	active := map[stageKey]int{}
	for _, r := range runs {
		counts[ks{r.Kind, r.Status}]++
		if (r.Status == lifecycle.JobRunning || r.Status == lifecycle.JobCompensating) && r.StageStartedAt != nil {
			k := stageKey{r.SiteID, string(r.CurrentStage)}
			active[k]++
			if t, ok := oldest[k]; !ok || r.StageStartedAt.Before(t) {
				oldest[k] = *r.StageStartedAt
			}
		}
	}
	for _, kind := range []lifecycle.RunKind{lifecycle.RunOnboarding, lifecycle.RunDecommission, lifecycle.RunRepair} {
		for _, st := range lifecycle.JobStates {
			gauge(ch, descRuns, float64(counts[ks{kind, st}]), string(kind), string(st))
		}
	}
	for k, t := range oldest {
		gauge(ch, descStage, unix(t), k.site, k.stage)
		gauge(ch, descActive, float64(active[k]), k.site, k.stage)
	}
	return nil
}
