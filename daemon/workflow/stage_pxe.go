package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// ensurePXEAuto makes sure the node's PXE interface has an AUTO or DHCP
// link to a subnet, relinking it as AUTO when it has not (seed 001 §4.3).
// With strict_pxe_preflight a PXE interface that cannot be fixed stops the
// run for a human.
func (d Deps) ensurePXEAuto(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	nics, err := s.network.NICs(ctx, m.SystemID)
	if err != nil {
		return runner.Outcome{}, err
	}
	nic := findNIC(nics, s.site.NodePXEIface)
	if nic == nil {
		return d.pxeProblem(c, "PXE interface %s not found on machine %s", s.site.NodePXEIface, m.SystemID)
	}
	if pxeLinked(*nic) {
		return runner.Skip(nic.Name + " already has an AUTO/DHCP subnet link"), nil
	}
	if m.Status != lifecycle.MaasReady {
		return runner.Outcome{}, notEditable(m, "interface "+nic.Name)
	}
	subnet, err := d.pxeSubnet(ctx, s, *nic)
	if err != nil {
		return runner.Outcome{}, err
	}
	if subnet == nil {
		return d.pxeProblem(c, "no subnet on VLAN %d for %s", s.site.PXEVLANVID, nic.Name)
	}
	for _, l := range nic.Links {
		if _, err := s.network.Unlink(ctx, m.SystemID, nic.ID, l.ID); err != nil {
			return runner.Outcome{}, err
		}
	}
	if _, err := s.network.Link(ctx, m.SystemID, nic.ID, "auto", subnet.ID, ""); err != nil {
		return runner.Outcome{}, err
	}
	c.Detail("pxe_relinked", nic.Name+" -> "+subnet.CIDR)
	return runner.Done("relinked " + nic.Name + " as AUTO on " + subnet.CIDR), nil
}

func (d Deps) pxeProblem(c *runner.Context, format string, args ...any) (runner.Outcome, error) {
	err := lifecycle.Errorf(lifecycle.CodeConflict, "workflow", format, args...)
	if !c.Policy.StrictPXEPreflight {
		c.Detail("pxe_warning", err.Msg)
		return runner.Done("PXE preflight not strict: " + err.Msg), nil
	}
	return runner.Outcome{}, runner.Classed(lifecycle.FailHardwareMismatch, err)
}

func findNIC(nics []lifecycle.NIC, name string) *lifecycle.NIC {
	for i := range nics {
		if nics[i].Name == name {
			return &nics[i]
		}
	}
	return nil
}

func pxeLinked(n lifecycle.NIC) bool {
	for _, l := range n.Links {
		if (l.Mode == "auto" || l.Mode == "dhcp") && l.SubnetID != 0 {
			return true
		}
	}
	return false
}

// pxeSubnet is the subnet the PXE link belongs on: one the interface was
// linked to before, else the first subnet on the site's PXE VLAN.
func (d Deps) pxeSubnet(ctx context.Context, s session, n lifecycle.NIC) (*lifecycle.Subnet, error) {
	subnets, err := s.network.Subnets(ctx)
	if err != nil {
		return nil, err
	}
	for _, l := range n.Links {
		for i := range subnets {
			if l.SubnetID == subnets[i].ID {
				return &subnets[i], nil
			}
		}
	}
	for i := range subnets {
		if subnets[i].VLANVID == s.site.PXEVLANVID || (n.VLANVID != 0 && subnets[i].VLANVID == n.VLANVID) {
			return &subnets[i], nil
		}
	}
	return nil, nil
}

// Network links a machine's interfaces to subnets (the PXE link here, the
// RoCE links in stage_roce.go). Link modes are auto, dhcp, static and
// link_up.
type Network interface {
	NICs(ctx context.Context, systemID string) ([]lifecycle.NIC, error)
	Link(ctx context.Context, systemID string, nicID int, mode string, subnetID int, ip string) (lifecycle.NIC, error)
	Unlink(ctx context.Context, systemID string, nicID, linkID int) (lifecycle.NIC, error)
	Subnets(ctx context.Context) ([]lifecycle.Subnet, error)
	CreateSubnet(ctx context.Context, cidr, description string) (lifecycle.Subnet, error)
}
