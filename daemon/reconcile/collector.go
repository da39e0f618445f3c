package reconcile

import (
	"context"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// InventoryStore is what the inventory collector reads at each scrape.
type InventoryStore interface {
	ListSites(ctx context.Context) ([]lifecycle.Site, error)
	GetSitePolicy(ctx context.Context, siteID string) (lifecycle.SitePolicy, error)
	ListNodes(ctx context.Context, f lifecycle.NodeFilter) ([]lifecycle.Node, error)
	ListRuns(ctx context.Context, f lifecycle.RunFilter) ([]lifecycle.Run, error)
	ListNodeMaasStates(ctx context.Context, f lifecycle.MaasStateFilter) ([]lifecycle.NodeMaasState, error)
}

// Collector exports the inventory from the store at scrape time: nodes
// by state, open drift by rule and severity, runs by kind and status, the
// oldest start and the number of runs of each active stage, with its
// policy timeout, and the
// largest agent contact age. Labels are bounded (site, state, rule,
// severity, kind, status, stage).
type Collector struct {
	Store   InventoryStore
	Clock   clockwork.Clock
	Logger  *slog.Logger
	Timeout time.Duration // per scrape (5s)
}

var (
	descUp       = prometheus.NewDesc("maas_sidecar_inventory_up", "1 when the inventory could be read from the store at this scrape.", nil, nil)
	descNodes    = prometheus.NewDesc("maas_sidecar_nodes", "Nodes by site and lifecycle state.", []string{"site", "state"}, nil)
	descDrift    = prometheus.NewDesc("maas_sidecar_drift_open", "Nodes with an open drift, by site, rule and severity.", []string{"site", "rule", "severity"}, nil)
	descRuns     = prometheus.NewDesc("maas_sidecar_runs", "Runs by kind and job state.", []string{"kind", "status"}, nil)
	descStage    = prometheus.NewDesc("maas_sidecar_stage_oldest_start_timestamp_seconds", "Unix start time of the oldest active attempt of a stage, by site and stage.", []string{"site", "stage"}, nil)
	descActive   = prometheus.NewDesc("maas_sidecar_stage_active_runs", "Running or compensating runs by site and current stage.", []string{"site", "stage"}, nil)
	descTimeout  = prometheus.NewDesc("maas_sidecar_stage_timeout_seconds", "Site policy timeout of a waiting stage.", []string{"site", "stage"}, nil)
	descContact  = prometheus.NewDesc("maas_sidecar_agent_last_contact_age_seconds", "Largest time since an agent of an active or offline node was heard from, by site.", []string{"site"}, nil)
	descOffLimit = prometheus.NewDesc("maas_sidecar_heartbeat_offline_threshold_seconds", "Site policy silence after which a node goes offline.", []string{"site"}, nil)
)

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descUp, descNodes, descDrift, descRuns, descStage, descActive, descTimeout, descContact, descOffLimit} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	up := 1.0
	if err := c.collect(ctx, ch); err != nil {
		up = 0
		if c.Logger != nil {
			c.Logger.Warn("inventory metrics", "err", err)
		}
	}
	ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, up)
}

func (c *Collector) collect(ctx context.Context, ch chan<- prometheus.Metric) error {
	sites, err := c.Store.ListSites(ctx)
	if err != nil {
		return err
	}
	now := c.Clock.Now()
	for _, s := range sites {
		if s.Status == lifecycle.SiteDeleted {
			continue
		}
		if err := c.site(ctx, ch, s.ID, now); err != nil {
			return err
		}
	}
	return c.runs(ctx, ch)
}

func gauge(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64, labels ...string) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
}
