package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// loadSiteConfig is the preflight (seed 001 §4.14): site active, MAAS
// reachable, token valid and an admin's, policy sane, and the MAAS version
// offering the capabilities the policy needs (hardware sync: MAAS >= 3.4.0).
func (d Deps) loadSiteConfig(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	site, err := d.Store.GetSite(ctx, c.Run.SiteID)
	if err != nil {
		return runner.Outcome{}, err
	}
	// A disabled site refuses new runs at the API; runs it already
	// accepted continue (seed 001 §3.5). A deleted site ends them.
	if site.Status == lifecycle.SiteDeleted {
		return runner.Outcome{}, runner.Classed(lifecycle.FailInputConfig,
			lifecycle.Errorf(lifecycle.CodeConflict, "workflow", "site %s is deleted", site.Name))
	}
	if err := c.Policy.Validate(); err != nil {
		return runner.Outcome{}, runner.Classed(lifecycle.FailSiteCapabilityMissing, err)
	}
	s, err := d.open(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	v, err := s.checker.Version(ctx)
	if err != nil {
		return runner.Outcome{}, err
	}
	user, err := s.checker.WhoAmI(ctx)
	if err != nil {
		return runner.Outcome{}, err
	}
	c.Detail("maas_version", v.Version)
	c.Detail("maas_user", user.Username)
	if !user.IsSuperuser {
		return runner.Outcome{}, runner.Classed(lifecycle.FailSiteCapabilityMissing, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
			"the site's MAAS API key belongs to %s, who is not a MAAS admin: commissioning, storage layout and machine tokens need an admin's key; "+
				"write one with `maas-sidecar site credentials`, then resume", user.Username))
	}
	if capability, msg, ok := v.MissingCapability(lifecycle.RequiredMaasCapabilities(c.Policy)); !ok {
		c.Detail("missing_capability", capability.Name)
		return runner.Outcome{}, runner.Classed(lifecycle.FailSiteCapabilityMissing,
			lifecycle.Errorf(lifecycle.CodeConflict, "workflow", "%s", msg))
	}
	return runner.Done("MAAS " + v.Version + " reachable as " + user.Username), nil
}

// resolvePowerCredentials picks the BMC credential path by the override
// order and checks the secret is readable; only the path is kept.
func (d Deps) resolvePowerCredentials(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	msg, err := d.choosePower(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	c.Detail("power_credentials", msg)
	return runner.Done(msg), nil
}

// bmc reads BMC credentials at path (at the moment of use).
func (d Deps) bmc(ctx context.Context, path, addr string) (lifecycle.BMCLogin, error) {
	cred, err := d.Secrets.PowerCredentials(ctx, path)
	if err != nil {
		return lifecycle.BMCLogin{}, secretErr(err, "BMC credentials")
	}
	if cred.User == "" || cred.Pass.Empty() {
		return lifecycle.BMCLogin{}, runner.Classed(lifecycle.FailSiteCapabilityMissing,
			lifecycle.Errorf(lifecycle.CodeInvalid, "workflow", "BMC credentials at %s lack user or pass", path))
	}
	return lifecycle.BMCLogin{Address: addr, User: cred.User, Pass: cred.Pass}, nil
}
