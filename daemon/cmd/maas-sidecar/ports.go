package main

import (
	"context"

	"github.com/gpuaas/maas-sidecar/cloudinit"
	"github.com/gpuaas/maas-sidecar/daemon/feed"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/netcheck"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/daemon/reconcile"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/secrets"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/ipmi"
)

// The adapters satisfy the ports the core declares where it uses them.
var (
	_ workflow.MAAS         = (*maas.Client)(nil)
	_ feed.MAAS             = (*maas.Client)(nil)
	_ reconcile.Cleaner     = maas.Sites{}
	_ workflow.Secrets      = (*secrets.Store)(nil)
	_ feed.Secrets          = (*secrets.Store)(nil)
	_ maas.Keys             = (*secrets.Store)(nil)
	_ workflow.Reachability = netcheck.TCP{}
	_ workflow.Power        = ipmi.PXE{}
	_ workflow.Power        = noPower{}
	_ workflow.Bootstrap    = cloudinit.Bootstrap{}
	_ workflow.Enrollment   = pki.Enrollment{}
	_ secrets.Backend       = noVault{}
)

// workflowMaas opens a site's MAAS for the workflows, which read the API
// key themselves (to classify a Vault failure).
type workflowMaas struct{ sites maas.Sites }

func (w workflowMaas) Connect(baseURL string, apiKey lifecycle.Secret) (workflow.MAAS, error) {
	c, err := w.sites.Dial(baseURL, apiKey)
	if err != nil {
		return nil, err // not a nil *maas.Client in a non-nil interface
	}
	return c, nil
}

// feedMaas opens a site's MAAS for the change feed, the key read now.
type feedMaas struct{ sites maas.Sites }

func (f feedMaas) Connect(ctx context.Context, site lifecycle.Site) (feed.MAAS, error) {
	c, err := f.sites.Open(ctx, site)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// noVault stands in when no Vault is configured: every read and write
// fails as a site capability the operator must provide.
type noVault struct{}

func (noVault) Read(context.Context, string) (map[string]string, error) { return nil, noVaultErr() }

func (noVault) Write(context.Context, string, map[string]string) error { return noVaultErr() }

func noVaultErr() error {
	return runner.Classed(lifecycle.FailSiteCapabilityMissing,
		lifecycle.Errorf(lifecycle.CodeConflict, "secrets", "no Vault is configured (vault.address)"))
}

// noPower answers every request with site_capability_missing: direct BMC
// access is not available on this host (no ipmitool).
type noPower struct{ why string }

func (n noPower) PXEBootCycle(context.Context, lifecycle.BMCLogin) error {
	return runner.Classed(lifecycle.FailSiteCapabilityMissing,
		lifecycle.Errorf(lifecycle.CodeConflict, "power", "direct BMC access is unavailable: %s", n.why))
}
