package main

import (
	"context"
	"log/slog"
	"net/http"
	"path/filepath"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

// adminAPI builds the admin API over the open store and the core: the
// runner takes its onboardings and recovery actions, Vault its credential
// writes (503 without Vault), the feed the MAAS webhooks and "reconcile now",
// the store the cluster status, the config the SKU catalog.
func adminAPI(st daemonStore, c *core, log *slog.Logger) http.Handler {
	cfg := admin.Config{Store: st, Runner: c.runner, Prober: maasProber{log: log}, Logger: log, Clock: c.clock,
		NotifyProver:   admin.NotifyProverFunc(pgnotify.Prove),
		Reconciliation: c.feed, Webhooks: c.feed, Enrollment: c.pki, Cluster: st.cluster,
		Bootstrap: c.pki, AgentURL: c.agents.url, SKUs: c.skus, Evidence: c.certs, Health: c.health}
	if c.secrets != nil {
		cfg.Secrets = c.secrets
	}
	switch b := st.Store.(type) {
	case admin.Backup: // bbolt: a copy of the store file
		cfg.Backup = b
		if f, ok := b.(interface{ Path() string }); ok {
			cfg.BackupStore, _ = filepath.Abs(f.Path())
		}
	case lifecycle.Exporter: // dqlite: the export stream
		cfg.Backup, cfg.BackupExt = exportBackup{b}, ".jsonl.gz"
	}
	return admin.New(cfg).Handler()
}

// maasProber checks a MAAS region with the MAAS client.
type maasProber struct{ log *slog.Logger }

var _ admin.Prober = maasProber{}

// Probe reads version/, the key's user and the rack controllers, without retries: an operator
// is waiting for the answer.
func (p maasProber) Probe(ctx context.Context, baseURL, apiKey string) (admin.MAASInfo, error) {
	r, err := maas.Probe(ctx, maas.Config{BaseURL: baseURL, APIKey: lifecycle.Secret(apiKey), ReadRetries: -1,
		HTTPClient: &http.Client{Timeout: 10 * time.Second}, Logger: p.log.With("component", "maas")})
	return maasInfo(r), err
}

// maasInfo is a probe's answer for the admin API.
func maasInfo(r maas.ProbeResult) admin.MAASInfo {
	info := admin.MAASInfo{Version: r.Version.Version, Subversion: r.Version.Subversion, Capabilities: r.Version.Capabilities,
		User: r.User.Username, Admin: r.User.IsSuperuser}
	for _, rc := range r.Racks {
		info.RackControllers = append(info.RackControllers, admin.RackController{SystemID: rc.SystemID, Hostname: rc.Hostname,
			Version: rc.Version, Services: rc.Services})
	}
	if r.RacksErr != nil {
		info.RackProblem = string(lifecycle.ErrorCode(r.RacksErr))
	}
	return info
}
