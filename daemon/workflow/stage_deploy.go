package workflow

import (
	"context"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// deploy never deploys blindly (seed 001 §4.10): a machine already
// Deploying or Deployed with this run's deploy is adopted (adoptDeploy);
// only a Ready or Allocated machine is deployed, with a fresh enrollment
// token in a freshly rendered payload. A deploy refused 409 because
// MAAS shows the machine Deploying or Deployed (an earlier attempt's
// deploy whose answer was lost, applied after this attempt's read) is
// re-read and adopted the same way. The hash of the token in each
// deploy's payload is kept until MAAS answers it (varDeployToken): an
// adopted deploy's token is reinstated (reinstateDeployToken).
func (d Deps) deploy(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	switch m.Status {
	case lifecycle.MaasDeploying, lifecycle.MaasDeployed:
		return d.adoptDeploy(ctx, c, s, m)
	case lifecycle.MaasReady, lifecycle.MaasAllocated:
	default:
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "cannot deploy machine %s: it is %s", m.SystemID, m.Status))
	}
	node, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil {
		return runner.Outcome{}, err
	}
	token, err := d.Enrollment.IssueToken(ctx, node.ID, c.Policy)
	if err != nil {
		return runner.Outcome{}, err
	}
	userData, err := d.payload(ctx, c, s, m, node, token)
	if err != nil {
		return runner.Outcome{}, err
	}
	series, unsettled := deploySeries(c, s.site), c.Var(varDeployToken)
	c.SetVar(varDeploySeries, series) // kept by a failed attempt too
	c.SetVar(varDeployToken, wire.TokenHash(token.Reveal()))
	_, err = s.deployer.Deploy(ctx, m.SystemID, lifecycle.DeploySpec{UserData: userData, DistroSeries: series,
		EnableHWSync: c.Policy.RequireHWSync, Comment: "maas-sidecar onboarding"})
	if lifecycle.ErrorCode(err) == lifecycle.CodeConflict {
		c.SetVar(varDeployToken, unsettled) // this payload was refused; an earlier one may be applied
		return d.deployRefused(ctx, c, s, err)
	}
	if err != nil {
		return runner.Outcome{}, err
	}
	c.SetVar(varDeployToken, "")
	c.SetVar(varDeploys, strconv.Itoa(atoi(c.Var(varDeploys))+1))
	return runner.Done("deploy of " + series + " started"), nil
}

// waitForDeployed parks until Deployed; a failed deployment routes to the
// classification stage instead of failing the run.
func (d Deps) waitForDeployed(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	switch m.Status {
	case lifecycle.MaasDeployed:
		if err := d.recordHost(ctx, c, s.site, m); err != nil {
			return runner.Outcome{}, err
		}
		return runner.Done("Deployed " + strings.Join(m.IPs, ",")), nil
	case lifecycle.MaasDeploying, lifecycle.MaasAllocated:
		return runner.Wait(zero, lifecycle.MachineKey(m.SystemID)), nil
	case lifecycle.MaasFailedDeployment:
		c.Detail("maas_message", firstNonEmpty(m.ErrorDescription, m.StatusMessage))
		return runner.Goto(lifecycle.StageClassifyDeployFailure, "deployment failed"), nil
	}
	return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
		"workflow", "waiting for Deployed, MAAS moved machine %s to %s out of band", m.SystemID, m.Status))
}

// recordHost keeps the deployed address on the node (seed 001 §8.1): the
// one on the site's deploy_ssh_iface, chosen as ensure_hardware_sync and
// the reconciler choose it (lifecycle.DeployAddress).
func (d Deps) recordHost(ctx context.Context, c *runner.Context, site lifecycle.Site, m lifecycle.Machine) error {
	addr, _ := lifecycle.DeployAddress(m.NICs, site.DeploySSHIface, m)
	if c.Run.NodeID == "" || addr == "" {
		return nil
	}
	_, err := d.Store.UpdateNode(ctx, c.Run.NodeID, func(n *lifecycle.Node) error {
		n.Host, n.MaasSystemID = addr, m.SystemID
		return nil
	})
	return err
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// Deployer deploys a Ready machine with the rendered user data.
type Deployer interface {
	Deploy(ctx context.Context, systemID string, d lifecycle.DeploySpec) (lifecycle.Machine, error)
}
