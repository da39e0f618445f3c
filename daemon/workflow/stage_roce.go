package workflow

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// applyRoCE links each RoCE assignment of the host as a STATIC address on
// its interface, creating the /31 subnet when MAAS lacks it (seed 001
// §4.3). It is idempotent and non-fatal: problems are recorded and the
// onboarding goes on.
func (d Deps) applyRoCE(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if !c.Policy.EnablePhase2RoCE {
		return runner.Skip("phase-2 RoCE disabled by site policy"), nil
	}
	items, err := d.Store.ListRoCEAssignments(ctx, c.Run.SiteID, c.Run.Hostname)
	if err != nil {
		return runner.Outcome{}, err
	}
	if len(items) == 0 {
		return runner.Skip("no RoCE assignments for this host"), nil
	}
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	nics, err := s.network.NICs(ctx, m.SystemID)
	if err != nil {
		return runner.Outcome{}, err
	}
	applied, problems := 0, 0
	for _, a := range items {
		err := d.linkRoCE(ctx, s, m.SystemID, nics, a.Interface, a.IPv4CIDR)
		if lifecycle.IsRetryable(err) {
			return runner.Outcome{}, err
		}
		if err != nil {
			problems++
			c.Detail("roce_"+a.Interface, err.Error())
			continue
		}
		applied++
	}
	return runner.Done(fmt.Sprintf("%d RoCE addresses applied, %d problems", applied, problems)), nil
}

func (d Deps) linkRoCE(ctx context.Context, s session, sid string, nics []lifecycle.NIC, iface, cidr string) error {
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return err
	}
	var nic *lifecycle.NIC
	for i := range nics {
		if nics[i].Name == iface {
			nic = &nics[i]
		}
	}
	if nic == nil {
		return fmt.Errorf("interface %s not found on the machine", iface)
	}
	ip := p.Addr().String()
	for _, l := range nic.Links {
		if l.Mode == "static" && l.IP == ip {
			return nil // already applied
		}
	}
	sn, err := d.subnetFor(ctx, s, p.Masked().String())
	if err != nil {
		return err
	}
	_, err = s.network.Link(ctx, sid, nic.ID, "static", sn.ID, ip)
	return err
}

func (d Deps) subnetFor(ctx context.Context, s session, cidr string) (lifecycle.Subnet, error) {
	subnets, err := s.network.Subnets(ctx)
	if err != nil {
		return lifecycle.Subnet{}, err
	}
	for _, sn := range subnets {
		if sn.CIDR == cidr {
			return sn, nil
		}
	}
	return s.network.CreateSubnet(ctx, cidr, "RoCE link (maas-sidecar)")
}
