package bridge

import (
	"context"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
)

// Disks implements workflow.MAAS.
func (m Maas) Disks(ctx context.Context, sid string) ([]workflow.Disk, error) {
	ds, err := m.C.BlockDevices(ctx, sid)
	out := make([]workflow.Disk, 0, len(ds))
	for _, d := range ds {
		if d.Type == "physical" || d.Type == "" {
			out = append(out, workflow.Disk{ID: d.ID, Name: d.Name, Model: d.Model, IDPath: d.IDPath})
		}
	}
	return out, err
}

// SetBootDisk implements workflow.MAAS.
func (m Maas) SetBootDisk(ctx context.Context, sid string, id int) error {
	return m.C.SetBootDisk(ctx, sid, id)
}

// SetFlatLayout implements workflow.MAAS.
func (m Maas) SetFlatLayout(ctx context.Context, sid string, root int) error {
	_, err := m.C.SetStorageLayout(ctx, sid, maas.StorageLayout{Layout: "flat", RootDeviceID: root})
	return err
}

// NICs implements workflow.MAAS.
func (m Maas) NICs(ctx context.Context, sid string) ([]workflow.NIC, error) {
	is, err := m.C.Interfaces(ctx, sid)
	out := make([]workflow.NIC, 0, len(is))
	for _, i := range is {
		n := workflow.NIC{ID: i.ID, Name: i.Name, MAC: i.MACAddress}
		if i.VLAN != nil {
			n.VLANVID = i.VLAN.VID
		}
		for _, l := range i.Links {
			wl := workflow.NICLink{ID: l.ID, Mode: string(l.Mode), IP: l.IPAddress}
			if l.Subnet != nil {
				wl.SubnetID, wl.SubnetCIDR = l.Subnet.ID, l.Subnet.CIDR
			}
			n.Links = append(n.Links, wl)
		}
		out = append(out, n)
	}
	return out, err
}

// Link implements workflow.MAAS.
func (m Maas) Link(ctx context.Context, sid string, nic int, mode string, subnet int, ip string) error {
	_, err := m.C.LinkSubnet(ctx, sid, nic, maas.LinkRequest{Mode: maas.LinkMode(mode), SubnetID: subnet, IPAddress: ip})
	return err
}

// Unlink implements workflow.MAAS.
func (m Maas) Unlink(ctx context.Context, sid string, nic, link int) error {
	_, err := m.C.UnlinkSubnet(ctx, sid, nic, link)
	return err
}

// Subnets implements workflow.MAAS.
func (m Maas) Subnets(ctx context.Context) ([]workflow.Subnet, error) {
	ss, err := m.C.Subnets(ctx)
	out := make([]workflow.Subnet, 0, len(ss))
	for _, s := range ss {
		out = append(out, subnet(s))
	}
	return out, err
}

// CreateSubnet implements workflow.MAAS.
func (m Maas) CreateSubnet(ctx context.Context, cidr string, _ int) (workflow.Subnet, error) {
	s, err := m.C.CreateSubnet(ctx, maas.NewSubnet{CIDR: cidr, Description: "RoCE link (maas-sidecar)"})
	return subnet(s), err
}

func subnet(s maas.Subnet) workflow.Subnet {
	w := workflow.Subnet{ID: s.ID, CIDR: s.CIDR}
	if s.VLAN != nil {
		w.VLANVID = s.VLAN.VID
	}
	return w
}

// Deploy implements workflow.MAAS; gpuaas-* images go as custom/<name>.
func (m Maas) Deploy(ctx context.Context, sid string, d workflow.DeploySpec) error {
	_, err := m.C.Deploy(ctx, sid, maas.DeployOptions{UserData: d.UserData, DistroSeries: maas.ImageSeries(d.DistroSeries),
		EnableHWSync: d.EnableHWSync, Comment: "maas-sidecar onboarding"})
	return err
}

// Release implements workflow.MAAS.
func (m Maas) Release(ctx context.Context, sid string, e lifecycle.EraseMode) error {
	_, err := m.C.Release(ctx, sid, eraseOpts(e))
	return err
}

// Abort implements workflow.MAAS.
func (m Maas) Abort(ctx context.Context, sid string) error {
	_, err := m.C.Abort(ctx, sid, "maas-sidecar recovery")
	return err
}

// MachineToken implements workflow.MAAS.
func (m Maas) MachineToken(ctx context.Context, sid string) (*workflow.MachineToken, error) {
	t, err := m.C.Token(ctx, sid)
	if err != nil || t == nil {
		return nil, err
	}
	return &workflow.MachineToken{ConsumerKey: t.ConsumerKey, TokenKey: t.TokenKey, TokenSecret: t.TokenSecret}, nil
}

// EventTexts implements workflow.MAAS: the newest events' type and text.
func (m Maas) EventTexts(ctx context.Context, sid string, limit int) ([]string, error) {
	evs, err := m.C.Events(ctx, maas.EventQuery{Level: "DEBUG", Limit: limit, SystemIDs: []string{sid}})
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		out = append(out, strings.TrimSpace(e.Type+" - "+e.Description))
	}
	return out, err
}
