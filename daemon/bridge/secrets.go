package bridge

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// NoSecrets stands in when no Vault is configured: every read fails as a
// site capability the operator must provide.
type NoSecrets struct{}

// Read implements workflow.Secrets.
func (NoSecrets) Read(context.Context, string) (map[string]string, error) {
	return nil, runner.Classed(lifecycle.FailSiteCapabilityMissing,
		lifecycle.Errorf(lifecycle.CodeConflict, "secrets", "no Vault is configured (vault.address)"))
}
