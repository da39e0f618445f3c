package workflow

import (
	"context"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// deploySeries is the series the run deploys: its own distro_series
// variable, else the site's.
func deploySeries(c *runner.Context, site lifecycle.Site) string {
	if v := c.Var("distro_series"); v != "" {
		return v
	}
	return site.DistroSeries
}

// adoptDeploy adopts machine m, which MAAS shows Deploying or Deployed,
// when the deploy is this run's: owned by the MAAS user of the site's
// key, with the series this run asked for (the one an earlier attempt
// recorded, else the one it would ask for now; a crash can lose the
// record between MAAS acting and the journal). MAAS does not show a
// machine's user data, so these are what tells this run's deploy apart.
// Anyone else's deploy is a state ambiguity for an operator, never
// adopted. Adopting reinstates the token of the adopted payload.
func (d Deps) adoptDeploy(ctx context.Context, c *runner.Context, s session, m lifecycle.Machine) (runner.Outcome, error) {
	user, err := s.checker.WhoAmI(ctx)
	if err != nil {
		return runner.Outcome{}, err
	}
	want := c.Var(varDeploySeries)
	if want == "" {
		want = deploySeries(c, s.site)
	}
	got := m.OSystem + "/" + m.DistroSeries
	if m.Owner != user.Username || !sameSeries(want, m) {
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
			"machine %s is %s with %s for MAAS user %q, not this run's deploy of %s for %q: someone else deployed it",
			m.SystemID, m.Status, got, m.Owner, want, user.Username))
	}
	c.Detail("adopted_deploy", got+" for "+m.Owner)
	if err := d.reinstateDeployToken(ctx, c); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("adopted: machine already " + m.Status.String() + " with this run's deploy of " + got), nil
}

// deployRefused handles a deploy MAAS refused with a conflict: when a
// re-read shows the machine Deploying or Deployed, an earlier attempt's
// deploy (its answer lost) acted after this attempt's read, and is
// adopted if it is this run's; any other conflict is a state ambiguity.
func (d Deps) deployRefused(ctx context.Context, c *runner.Context, s session, refused error) (runner.Outcome, error) {
	m, err := s.machine(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if m.Status == lifecycle.MaasDeploying || m.Status == lifecycle.MaasDeployed {
		c.Detail("deploy_refused", refused.Error())
		return d.adoptDeploy(ctx, c, s, m)
	}
	return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, refused)
}

// sameSeries reports whether machine m runs series want: "os/series"
// compares both, a bare series (as MAAS also accepts) the series only.
func sameSeries(want string, m lifecycle.Machine) bool {
	if osys, series, ok := strings.Cut(want, "/"); ok {
		return osys == m.OSystem && series == m.DistroSeries
	}
	return want == m.DistroSeries
}
