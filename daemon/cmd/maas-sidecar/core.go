package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/api/agentapi"
	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gpuaas/maas-sidecar/cloudinit"
	"github.com/gpuaas/maas-sidecar/daemon/bridge/pglisten"
	"github.com/gpuaas/maas-sidecar/daemon/config"
	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/health"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/metrics"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/internal/buildinfo"
)

// core is the daemon's engine: the runner driving the workflows, the
// agent API, the change feed that wakes runs waiting on MAAS, and the
// reconciler that keeps the inventory honest against MAAS.
type core struct {
	runner  *runner.Runner
	agents  *agentListener
	feed    *feed.Feed
	secrets admin.Secrets // nil without Vault
	runs    []func(context.Context) error
	pki     *pki.PKI // enrollment tokens for the admin API
	certs   *certService
	health  *health.Service // node health verdicts and reported faults
	skus    lifecycle.Catalog
	clock   clockwork.Clock
}

// adapters are the outside-world ports the core runs on: Vault, bmclib
// and MAAS's rack URL in production, the simulated site in dev mode.
type adapters struct {
	secrets secrets.Backend
	writer  admin.Secrets // nil: credential writes answer 503
	power   workflow.Power
	// reach checks deployed hosts answer (nil: the check is off).
	reach   workflow.Reachability
	rackURL string // "" derives it from the site's MAAS URL
	runs    []func(context.Context) error
	clock   clockwork.Clock // the daemon's one clock
}

// buildCore wires the adapters into the runner
// and the workflows (onboarding, decommission), the feed and the reconciler; their metrics
// go to reg.
func buildCore(cfg config.Config, st daemonStore, ad adapters, reg *prometheus.Registry, log *slog.Logger) (*core, error) {
	p, err := openPKIOn(cfg.StateDir, ad.clock, !vaultSiteKey(cfg))
	if err != nil {
		return nil, err
	}
	sec := secrets.NewStore(ad.secrets)
	c := &core{secrets: ad.writer, pki: p, clock: ad.clock}
	if c.skus, err = cfg.Catalog(); err != nil {
		return nil, err
	}
	sites := maas.Sites{Keys: sec, Logger: log.With("component", "maas"), Metrics: maas.NewMetrics(reg),
		UserAgent: userAgent(cfg), Clock: ad.clock}
	deps := workflow.Deps{Store: st, Connector: workflowMaas{sites}, Secrets: sec, Power: ad.power, Reach: ad.reach,
		Enrollment: pki.Enrollment{PKI: p, Store: st},
		NewID:      func() (string, error) { return lifecycle.NewID(nil) }, Logger: log}
	kctx, cancel := context.WithTimeout(context.Background(), siteKeyWait)
	home := siteKeyHome(kctx, cfg, ad.secrets, filepath.Join(cfg.StateDir, "pki"), log)
	cancel()
	if c.certs, err = newCertService(home, st, ad.clock); err != nil {
		return nil, err
	}
	deps.Certs = c.certs
	deps.Outbox = outboxOf(st, log)
	deps.Metrics = metrics.NewDecommissions(reg)
	deps.Repairs = metrics.NewRepairs(reg)
	resolver := workflow.ReseedPayloads{Deps: deps, RackURL: ad.rackURL}
	hook := func(_ context.Context, n lifecycle.Node) error { c.runner.Wake(lifecycle.NodeKey(n.ID)); return nil }
	// A task result wakes the run waiting on the node's agent.
	woken := wakeOnResult{Store: st, wake: func(k string) { c.runner.Wake(k) }}
	// Manual hosts fetch their bootstrap scripts through the agent API,
	// with deps complete by the time it serves.
	scripts := depsScripts{&deps}
	// A critical verdict or a reported fault that quarantined a node
	// starts its repair run.
	c.health = health.New(health.Config{Store: st, Metrics: health.NewMetrics(reg), Clock: ad.clock, Logger: log,
		Repair: newRepairSeam(c, st)})
	if c.agents, err = startAgents(cfg, woken, p, hook, resolver.Resolve, scripts, c.health, agentapi.NewMetrics(reg), ad.clock, log); err != nil {
		return nil, err
	}
	boot := cloudinit.Bootstrap{AgentAPIURL: c.agents.url, AgentPackages: agentPackages(cfg.Agent),
		CABundlePEM: string(p.CABundlePEM()), SigningPublicKey: string(p.SigningPublicKeyPEM()), RackURL: ad.rackURL,
		AgentHealthInterval: cfg.Agent.HealthInterval}
	deps.Bootstrap, deps.Scripts = boot, boot
	deps.Tasks = agentapi.Queue{Store: st, Notifier: c.agents.api.Notifier()}
	leases, held := metrics.NewLeases(reg), &heldSites{}
	c.runner = runner.New(runner.Options{Store: st, Logger: log, Clock: ad.clock, Holder: cfg.Holder(os.Hostname), LeaseTTL: cfg.Store.LeaseTTL,
		Defs:         deps.Defs,
		Observe:      metrics.NewStages(reg).Observe,
		OnLease:      func(e runner.LeaseEvent) { leases.Observe(e); held.observe(e) },
		ScanInterval: scanInterval(st),
		// An agent may enroll or report through another member's agent
		// API, which wakes "node:<id>" there.
		SharedWakeKeys: []string{lifecycle.NodeKey("")}})
	recon := reconcile.New(reconcile.Config{Store: st, Cleaner: sites, Tasks: deps.Tasks, Logger: log, Clock: ad.clock,
		Metrics: reconcile.NewMetrics(reg), Follows: follows(st, held)})
	reg.MustRegister(&reconcile.Collector{Store: st, Clock: ad.clock, Logger: log})
	c.feed = feed.New(feed.Config{Store: st, Connector: feedMaas{sites}, Secrets: sec,
		Reconciler: recon, Waker: c.runner, Logger: log, Clock: ad.clock, Metrics: feed.NewMetrics(reg), PollInterval: cfg.PollInterval,
		// A site created through the admin API is followed within one
		// poll interval, not the feed's 30 s default (a store read).
		SitesInterval: min(cfg.PollInterval, 30*time.Second),
		Follows:       follows(st, held),
		Listener: pglisten.Listener{Password: sec.NotifyDBPassword, RegiondConf: cfg.Notify.RegiondConf,
			MinBackoff: cfg.Notify.MinBackoff, MaxBackoff: cfg.Notify.MaxBackoff, Logger: log.With("component", "pgnotify"),
			Clock: ad.clock}})
	held.changed = c.feed.Refollow
	c.runs = append(c.runs, c.runner.Run, c.feed.Run, recon.Run, c.health.Run)
	return c, nil
}

// depsScripts answers the agent API's bootstrap fetches with the
// workflows' dependencies, which buildCore completes after the agent
// listener is bound (the scripts name its URL).
type depsScripts struct{ deps *workflow.Deps }

func (s depsScripts) BootstrapScript(ctx context.Context, hash string, m lifecycle.ScriptMode) ([]byte, error) {
	return s.deps.BootstrapScript(ctx, hash, m)
}

// scanInterval is how often the runner looks in the store for what other
// daemons wrote: only a store shared by several daemons (one that says so
// with Shared) needs it; bbolt is opened by one process alone.
func scanInterval(st daemonStore) time.Duration {
	if s, ok := st.Store.(interface{ Shared() bool }); ok && s.Shared() {
		return 2 * time.Second
	}
	return 0
}

// follows is the feed's choice of sites: every site on a store of its
// own, the sites this daemon holds on a shared store.
func follows(st daemonStore, held *heldSites) func(string) bool {
	if scanInterval(st) == 0 {
		return nil
	}
	return held.has
}

// agentPackages is the config's agent packages by Debian architecture
// (agent.packages, with agent.package_url as amd64) for cloud-init.
func agentPackages(a config.Agent) map[string]cloudinit.AgentPackage {
	out := map[string]cloudinit.AgentPackage{}
	for arch, p := range a.PackageSet() {
		out[arch] = cloudinit.AgentPackage{URL: p.URL, SHA256: p.SHA256}
	}
	return out
}

// userAgent is what the daemon's MAAS requests say of it: the version and
// the daemon's lease name, so that MAAS's logs tell the daemons sharing a
// site apart.
func userAgent(cfg config.Config) string {
	return "maas-sidecar/" + buildinfo.String() + " (" + cfg.Holder(os.Hostname) + ")"
}
