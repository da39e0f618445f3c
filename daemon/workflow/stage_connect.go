package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// connect resolves the deployed host's address (seed 001 §4.3
// EnsureHardwareSyncConfigured step 3), keeps it as the node's host and
// checks the host answers there. An address that cannot be found or
// reached is post_deploy_connectivity_failure (bounded retry, then an
// operator).
// The machine's interfaces come with it (MAAS's interface_set).
func (d Deps) connect(ctx context.Context, s session, c *runner.Context, m lifecycle.Machine) error {
	addr, source := lifecycle.DeployAddress(m.NICs, s.site.DeploySSHIface, m)
	if addr == "" {
		return runner.Classed(lifecycle.FailPostDeployConnectivity, lifecycle.Errorf(lifecycle.CodeUnavailable, "workflow",
			"machine %s has no address on %s and MAAS reports no IP", m.SystemID, s.site.DeploySSHIface))
	}
	c.Detail("deploy_address", addr)
	c.Detail("deploy_address_source", source)
	if err := d.setHost(ctx, c, addr); err != nil {
		return err
	}
	if d.Reach == nil {
		c.Detail("connectivity", "not checked (the connectivity check is off)")
		return nil
	}
	if err := d.Reach.Reach(ctx, addr); err != nil {
		return runner.Classed(lifecycle.FailPostDeployConnectivity, lifecycle.Errorf(lifecycle.CodeUnavailable, "workflow",
			"deployed host %s is not reachable at %s (%s): %v", m.Hostname, addr, source, err))
	}
	c.Detail("connectivity", "reachable")
	return nil
}

// setHost keeps addr as the node's host when it changed.
func (d Deps) setHost(ctx context.Context, c *runner.Context, addr string) error {
	if c.Run.NodeID == "" {
		return nil
	}
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil || n.Host == addr {
		return err
	}
	_, err = d.Store.UpdateNode(ctx, n.ID, func(x *lifecycle.Node) error { x.Host = addr; return nil })
	return err
}
