package workflow

import (
	"context"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// createOrFind binds the run to a MAAS machine (seed 001 §4.3, §4.16):
// by hostname, then BMC address, then PXE MAC; else create it with IPMI
// power; if that yields nothing usable, PXE-boot it and claim what
// discovery finds, failing closed on ambiguity.
func (d Deps) createOrFind(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	s, err := d.open(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if c.Run.MaasSystemID != "" {
		if m, err := s.finder.Machine(ctx, c.Run.MaasSystemID); err == nil {
			return d.bound(ctx, c, m, "already bound")
		}
	}
	m, found, err := d.lookup(ctx, s, c)
	if err != nil || found {
		if err != nil {
			return runner.Outcome{}, err
		}
		return d.bound(ctx, c, m, "found existing machine")
	}
	if c.Var(varPXECycled) != "" {
		return d.discover(ctx, s, c)
	}
	bmc, err := d.bmc(ctx, c.Var(varPowerPath), c.Run.IPMIIP)
	if err != nil {
		return runner.Outcome{}, err
	}
	m, err = s.creator.CreateMachine(ctx, c.Run.Hostname, bmc)
	if err == nil && m.SystemID != "" {
		return d.bound(ctx, c, m, "created in MAAS")
	}
	if err != nil && lifecycle.IsRetryable(err) {
		return runner.Outcome{}, err
	}
	c.Detail("create_error", errText(err))
	return d.pxeCycle(ctx, s, c, bmc)
}

// bound binds the run to machine m and records its boot interface MAC.
func (d Deps) bound(ctx context.Context, c *runner.Context, m lifecycle.Machine, msg string) (runner.Outcome, error) {
	c.SetMaasSystemID(m.SystemID)
	c.Detail("system_id", m.SystemID)
	observe(c, m)
	if err := d.bindPXEMac(ctx, c, m); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done(msg + " " + m.SystemID), nil
}

// lookup tries hostname, BMC address and PXE MAC in that order. Two
// machines answering one key is ambiguity.
func (d Deps) lookup(ctx context.Context, s session, c *runner.Context) (lifecycle.Machine, bool, error) {
	byName, err := s.finder.Machines(ctx, filter(c.Run.Hostname, ""))
	if err != nil {
		return lifecycle.Machine{}, false, err
	}
	if m, ok, err := one(byName, "hostname "+c.Run.Hostname); ok || err != nil {
		return m, ok, err
	}
	addrs, err := s.finder.PowerAddresses(ctx)
	if err != nil {
		return lifecycle.Machine{}, false, err
	}
	var ids []string
	for sid, a := range addrs {
		if a == c.Run.IPMIIP {
			ids = append(ids, sid)
		}
	}
	sort.Strings(ids)
	if len(ids) > 1 {
		return lifecycle.Machine{}, false, ambiguous("BMC address "+c.Run.IPMIIP, ids)
	}
	if len(ids) == 1 {
		m, err := s.finder.Machine(ctx, ids[0])
		return m, err == nil, err
	}
	if mac := c.Var(varPXEMac); mac != "" {
		byMAC, err := s.finder.Machines(ctx, filter("", mac))
		if err != nil {
			return lifecycle.Machine{}, false, err
		}
		return one(byMAC, "MAC "+mac)
	}
	return lifecycle.Machine{}, false, nil
}

func one(ms []lifecycle.Machine, what string) (lifecycle.Machine, bool, error) {
	switch len(ms) {
	case 0:
		return lifecycle.Machine{}, false, nil
	case 1:
		return ms[0], true, nil
	}
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.SystemID)
	}
	return lifecycle.Machine{}, false, ambiguous(what, ids)
}

func ambiguous(what string, ids []string) error {
	return runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
		"%s matches several MAAS machines (%s); resolve in MAAS, then rerun", what, strings.Join(ids, ", ")))
}

func errText(err error) string {
	if err == nil {
		return "MAAS returned no usable machine"
	}
	return err.Error()
}

// Finder looks machines up in MAAS.
type Finder interface {
	Machine(ctx context.Context, systemID string) (lifecycle.Machine, error)
	Machines(ctx context.Context, f lifecycle.MachineFilter) ([]lifecycle.Machine, error)
	// PowerAddresses maps system ids to BMC addresses (every machine when
	// no id is given).
	PowerAddresses(ctx context.Context, systemIDs ...string) (map[string]string, error)
}

// Creator enlists a machine behind its BMC; MAAS commissions it at once.
type Creator interface {
	CreateMachine(ctx context.Context, hostname string, bmc lifecycle.BMCLogin) (lifecycle.Machine, error)
}

// filter selects by hostname and/or MAC; every machine when both are empty.
func filter(hostname, mac string) lifecycle.MachineFilter {
	var f lifecycle.MachineFilter
	if hostname != "" {
		f.Hostnames = []string{hostname}
	}
	if mac != "" {
		f.MACAddresses = []string{mac}
	}
	return f
}
