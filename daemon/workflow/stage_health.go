package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// healthReader is the store's node health (every lifecycle.Store has it).
type healthReader interface {
	GetNodeHealth(ctx context.Context, nodeID string) (lifecycle.NodeHealth, error)
}

// healthEscalates reports whether the node's health between turnovers
// asks this turnover for a deeper diagnostic: a degraded verdict, or a
// reported fault the policy does not quarantine (daemon/health sets
// EscalateDiag). No health record, or one that cannot be read, asks
// nothing.
func (d Deps) healthEscalates(ctx context.Context, c *runner.Context) bool {
	hr, ok := d.Store.(healthReader)
	if !ok {
		return false
	}
	h, err := hr.GetNodeHealth(ctx, c.Run.NodeID)
	return err == nil && h.EscalateDiag
}
