package devmode

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// SiteStore is what seeding needs of the store.
type SiteStore interface {
	CreateSite(ctx context.Context, s lifecycle.Site, p lifecycle.SitePolicy) error
}

// Seed creates the dev site, its policy and its secrets: the simulator's
// API key, the BMC credentials and the deploy password, in memory at the
// site's usual Vault paths. With a region database (StartRegionDB) the
// site LISTENs on it as its least-privileged role, whose password is in
// memory at the site's notify-db path.
func (s *Site) Seed(ctx context.Context, st SiteStore) error {
	site := lifecycle.Site{ID: SiteID, Name: "dev-maas", RegionCode: "dev", APIBaseURL: s.URL,
		PXEIface: "ens19", PXEVLANVID: 0, NodePXEIface: "eno8303", DistroSeries: "gpuaas-ubuntu-2204", Notify: s.notify()}.WithDefaults()
	p := lifecycle.DefaultSitePolicy(SiteID)
	p.BatchMaxParallel = 8
	p.HardwareSyncInterval = "5m"
	// The simulated hosts' NVMe data drives (the boot disk is never one).
	p.TenantDrives = &lifecycle.TenantDrives{AllNVMe: true, Filesystem: "ext4"}
	if err := st.CreateSite(ctx, site, p); err != nil {
		return err
	}
	secrets := map[string]map[string]string{
		lifecycle.WebhookSecretVaultPath(SiteID): {"secret": s.webhookSecret},
		site.APITokenVaultPath:                   {"token": s.apiKey},
		site.DefaultPowerCredsVaultPath:          {"user": "root", "pass": "dev-bmc-password"},
		site.DeployPasswordVaultPath:             {"password": "dev-deploy-password"},
	}
	if s.db != nil {
		secrets[lifecycle.NotifyDBPasswordVaultPath(SiteID)] = map[string]string{"password": s.db.password}
	}
	for path, v := range secrets {
		if err := s.Secrets.Write(ctx, path, v); err != nil {
			return err
		}
	}
	return nil
}

// SendWebhooks points the simulator's webhook emitter at the daemon's
// webhook route on the admin listener, signed with the site's secret.
func (s *Site) SendWebhooks(adminAddr string) {
	url := "http://" + adminAddr + "/api/v1/webhooks/maas?site_id=" + SiteID
	s.Sim.SetWebhooks([]maassim.WebhookTarget{{URL: url, Secret: s.webhookSecret}}, maassim.WebhookFaults{})
}
