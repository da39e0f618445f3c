package secrets

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// PowerCredentialsFor reads, at the moment of the call, the power
// credentials the seed's override order (lifecycle.SelectPowerCredentials)
// chooses for a machine.
func (s *Store) PowerCredentialsFor(ctx context.Context, defaultPath string, overrides []lifecycle.PowerOverride, k lifecycle.NodeKeys) (PowerCredentials, lifecycle.PowerSelection, error) {
	sel := lifecycle.SelectPowerCredentials(defaultPath, overrides, k)
	c, err := s.PowerCredentials(ctx, sel.VaultPath)
	return c, sel, err
}
