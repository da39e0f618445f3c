package workflow

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// pxeCycle remembers which New machines already exist, then PXE-boots the
// BMC so that the machine enlists itself (the discovery fallback).
func (d Deps) pxeCycle(ctx context.Context, s session, c *runner.Context, bmc lifecycle.BMCLogin) (runner.Outcome, error) {
	known, err := newMachines(ctx, s)
	if err != nil {
		return runner.Outcome{}, err
	}
	c.SetVar(varKnownNew, strings.Join(known, ","))
	c.SetVar(varDiscoveryFrom, c.Now().Format(time.RFC3339Nano))
	if err := d.Power.PXEBootCycle(ctx, bmc); err != nil {
		// Wrong BMC credentials are not retried: retries lock BMCs out.
		if lifecycle.ErrorCode(err) == lifecycle.CodeUnauthorized {
			return runner.Outcome{}, runner.Classed(lifecycle.FailSiteCapabilityMissing, err)
		}
		return runner.Outcome{}, runner.Classed(lifecycle.FailBMCPower, err)
	}
	c.SetVar(varPXECycled, "yes")
	return runner.Wait(c.Now().Add(d.recheck()), lifecycle.SiteKey(c.Run.SiteID)), nil
}

// discover claims the machine the PXE boot enlisted: exactly one New
// machine that appeared during this run; with none, the sole New machine
// only when the site allows it; otherwise it waits, or fails closed.
func (d Deps) discover(ctx context.Context, s session, c *runner.Context) (runner.Outcome, error) {
	all, err := newMachines(ctx, s)
	if err != nil {
		return runner.Outcome{}, err
	}
	known := map[string]bool{}
	for _, id := range strings.Split(c.Var(varKnownNew), ",") {
		known[id] = true
	}
	var fresh []string
	for _, id := range all {
		if !known[id] {
			fresh = append(fresh, id)
		}
	}
	switch {
	case len(fresh) == 1:
		return d.claim(ctx, s, c, fresh[0], "discovered during this run")
	case len(fresh) > 1:
		return runner.Outcome{}, ambiguous("PXE discovery", fresh)
	case len(all) == 1 && c.Policy.AutoClaimSingleNewMachine:
		return d.claim(ctx, s, c, all[0], "sole New machine claimed by site policy")
	case len(all) > 1 && c.Policy.AutoClaimSingleNewMachine:
		return runner.Outcome{}, ambiguous("New machines", all)
	}
	return runner.Wait(c.Now().Add(d.recheck()), lifecycle.SiteKey(c.Run.SiteID)), nil
}

func (d Deps) claim(ctx context.Context, s session, c *runner.Context, sid, why string) (runner.Outcome, error) {
	m, err := s.finder.Machine(ctx, sid)
	if err != nil {
		return runner.Outcome{}, err
	}
	c.Detail("claimed", why)
	return d.bound(ctx, c, m, why)
}

func newMachines(ctx context.Context, s session) ([]string, error) {
	ms, err := s.finder.Machines(ctx, lifecycle.MachineFilter{})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, m := range ms {
		if m.Status == lifecycle.MaasNew {
			ids = append(ids, m.SystemID)
		}
	}
	sort.Strings(ids)
	return ids, nil
}
