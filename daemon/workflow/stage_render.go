package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// renderCloudInit creates (or recovers) the node record in enrolling and
// proves the first-boot payload renders for it (with the agent package of
// the machine's architecture: none configured stops the run here, before
// deploy). The payload itself holds secrets (enrollment token, machine
// credentials), so it is rendered again at deploy time and never stored.
func (d Deps) renderCloudInit(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	node, err := d.ensureNode(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if _, err := d.payload(ctx, c, s, m, node, lifecycle.Secret("dry-run-token")); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("node " + node.ID + " enrolling; payload renders"), nil
}

// ensureNode returns the run's node, creating it when it does not exist
// yet (with the id reserved at submission, or a fresh one), and
// recovering the record of this hostname when an earlier attempt created
// it before it could journal the id.
func (d Deps) ensureNode(ctx context.Context, c *runner.Context) (lifecycle.Node, error) {
	if c.Run.NodeID != "" {
		n, err := d.Store.GetNode(ctx, c.Run.NodeID)
		if lifecycle.ErrorCode(err) != lifecycle.CodeNotFound {
			return n, err
		}
	}
	// The hostname index answers (case-insensitively), not a scan of the
	// site's nodes: a run's cost must not grow with the fleet.
	nodes, err := d.Store.ListNodes(ctx, lifecycle.NodeFilter{SiteID: c.Run.SiteID, Hostname: c.Run.Hostname})
	if err != nil {
		return lifecycle.Node{}, err
	}
	for _, n := range nodes {
		if n.Status != lifecycle.NodeDeleted {
			if n.Status != lifecycle.NodeEnrolling && n.Status != lifecycle.NodeBootstrapIssued {
				return n, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
					"hostname %s is already node %s in state %s", n.Hostname, n.ID, n.Status))
			}
			c.SetNodeID(n.ID)
			return n, nil
		}
	}
	return d.newNode(ctx, c)
}

// newNode creates the run's node in enrolling with the fields of seed 001
// §8.1: hostname, SKU and its GPU count, the site's region (or the run's
// override), port 22.
func (d Deps) newNode(ctx context.Context, c *runner.Context) (lifecycle.Node, error) {
	site, err := d.Store.GetSite(ctx, c.Run.SiteID)
	if err != nil {
		return lifecycle.Node{}, err
	}
	id := c.Run.NodeID
	if id == "" {
		if id, err = d.NewID(); err != nil {
			return lifecycle.Node{}, err
		}
	}
	region := site.RegionCode
	if c.Run.RegionCode != "" {
		region = c.Run.RegionCode
	}
	n := lifecycle.Node{ID: id, SiteID: c.Run.SiteID, Hostname: c.Run.Hostname, SKU: c.Run.SKU, GPUsTotal: c.Run.GPUsTotal,
		RegionCode: region, Port: lifecycle.DefaultNodePort, Status: lifecycle.NodeEnrolling,
		MaasSystemID: c.Run.MaasSystemID, IPMIIP: c.Run.IPMIIP, PXEMac: c.Var(varPXEMac)}
	if err := d.Store.CreateNode(ctx, n); err != nil {
		return lifecycle.Node{}, err
	}
	c.SetNodeID(id)
	return d.Store.GetNode(ctx, id)
}

// payload renders the user-data of node n on machine m (its architecture
// picks the agent package) with token as its enrollment token.
func (d Deps) payload(ctx context.Context, c *runner.Context, s session, m lifecycle.Machine, n lifecycle.Node,
	token lifecycle.Secret) ([]byte, error) {
	pw, err := d.Secrets.DeployPassword(ctx, s.site.DeployPasswordVaultPath)
	if err != nil {
		return nil, secretErr(err, "deploy password")
	}
	roce, err := d.Store.ListRoCEAssignments(ctx, c.Run.SiteID, c.Run.Hostname)
	if err != nil {
		return nil, err
	}
	mt, err := s.tokens.MachineToken(ctx, c.Run.MaasSystemID)
	if err != nil {
		return nil, err
	}
	out, err := d.Bootstrap.Render(lifecycle.BootstrapSpec{Site: s.site, Policy: c.Policy, NodeID: n.ID, Hostname: n.Hostname,
		SystemID: c.Run.MaasSystemID, Architecture: m.Architecture, DeployPassword: pw, EnrollmentToken: token,
		MachineToken: mt, RoCE: roce})
	switch {
	case err == nil, runner.HasClass(err):
	case lifecycle.ErrorCode(err) == lifecycle.CodeConflict: // the daemon cannot bootstrap agents
		err = runner.Classed(lifecycle.FailSiteCapabilityMissing, err)
	default:
		err = runner.Classed(lifecycle.FailInputConfig, err)
	}
	return out, err
}
