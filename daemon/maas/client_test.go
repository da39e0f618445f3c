package maas_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/maas"
)

func TestVersionAndWhoAmI(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	v, err := e.client.Version(ctx)
	if err != nil || v.Version != "3.6.5" || len(v.Capabilities) == 0 {
		t.Fatalf("version %+v %v", v, err)
	}
	u, err := e.client.WhoAmI(ctx)
	if err != nil || u.Username != "admin" || !u.IsSuperuser {
		t.Fatalf("whoami %+v %v", u, err)
	}
}

func TestMachinesFilters(t *testing.T) {
	e := newEnv(t, 4)
	ctx := context.Background()
	all, err := e.client.Machines(ctx, maas.MachineFilter{})
	if err != nil || len(all) != 4 {
		t.Fatalf("%d machines, %v", len(all), err)
	}
	hosts := func(ms []maas.Machine) []string {
		out := []string{}
		for _, m := range ms {
			out = append(out, m.Hostname)
		}
		return out
	}
	cases := []struct {
		name string
		f    maas.MachineFilter
		want []string
	}{
		{"ids repeated", maas.MachineFilter{IDs: []string{all[0].SystemID, all[2].SystemID}}, []string{all[0].Hostname, all[2].Hostname}},
		{"hostname", maas.MachineFilter{Hostnames: []string{all[1].Hostname}}, []string{all[1].Hostname}},
		{"mac upper case", maas.MachineFilter{MACAddresses: []string{strings.ToUpper(all[3].Interfaces[0].MACAddress)}}, []string{all[3].Hostname}},
		{"id and hostname disagree", maas.MachineFilter{IDs: []string{all[0].SystemID}, Hostnames: []string{all[1].Hostname}}, []string{}},
		{"unknown id", maas.MachineFilter{IDs: []string{"nope"}}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := e.client.Machines(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, hosts(got)); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestOnboardAndDecommissionCalls walks one machine through every call the
// workflows make, in the order they make them.
func TestOnboardAndDecommissionCalls(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	c := e.client
	m, err := c.CreateMachine(ctx, maas.NewMachine{Hostname: "gpu-01", Architecture: "amd64",
		Power: maas.IPMIPower{Address: "10.20.0.5", User: "root", Password: "calvin"}, NoCommission: true})
	if err != nil || m.Status != lifecycle.MaasNew || m.PowerType != "ipmi" || m.Architecture != "amd64/generic" {
		t.Fatalf("create: %+v %v", m, err)
	}
	sid := m.SystemID
	if m, err = c.UpdateMachine(ctx, sid, maas.MachineUpdate{Hostname: "gpu-01a",
		Power: &maas.IPMIPower{Address: "10.20.0.5", User: "admin", Password: "pw2"}}); err != nil || m.Hostname != "gpu-01a" {
		t.Fatalf("update: %+v %v", m, err)
	}
	if tok, err := c.Token(ctx, sid); err != nil || tok != nil {
		t.Fatalf("token before commissioning: %v %v", tok, err)
	}
	acc, err := c.Accept(ctx, sid)
	if err != nil || len(acc) != 1 || acc[0].Status != lifecycle.MaasCommissioning {
		t.Fatalf("accept: %+v %v", acc, err)
	}
	e.advance(time.Minute)
	if m, _ = c.Machine(ctx, sid); m.Status != lifecycle.MaasReady {
		t.Fatalf("after commissioning: %s", m.StatusName)
	}
	if m, err = c.Commission(ctx, sid, maas.CommissionOptions{EnableSSH: true, SkipBMCConfig: true}); err != nil || m.Status != lifecycle.MaasCommissioning {
		t.Fatalf("commission: %v %v", m.StatusName, err)
	}
	e.advance(time.Minute)
	configureStorage(t, e, sid)
	configureNetwork(t, e, sid)
	deployAndSync(t, e, sid)
	decommission(t, e, sid)
}

func configureStorage(t *testing.T, e *env, sid string) {
	ctx := context.Background()
	disks, err := e.client.BlockDevices(ctx, sid)
	if err != nil || len(disks) != 5 {
		t.Fatalf("block devices: %d %v", len(disks), err)
	}
	var boss maas.BlockDevice
	for _, d := range disks {
		if strings.Contains(d.Model, "BOSS") {
			boss = d
		}
	}
	if boss.ID == 0 || !strings.Contains(boss.IDPath, "DELLBOSS") {
		t.Fatalf("no BOSS disk in %+v", disks)
	}
	if err := e.client.SetBootDisk(ctx, sid, boss.ID); err != nil {
		t.Fatalf("set_boot_disk: %v", err)
	}
	m, err := e.client.SetStorageLayout(ctx, sid, maas.StorageLayout{Layout: "flat"})
	if err != nil || m.BootDiskID != boss.ID {
		t.Fatalf("layout: boot disk %d want %d, %v", m.BootDiskID, boss.ID, err)
	}
}

func configureNetwork(t *testing.T, e *env, sid string) {
	ctx := context.Background()
	ifaces, err := e.client.Interfaces(ctx, sid)
	if err != nil || len(ifaces) != 3 {
		t.Fatalf("interfaces: %d %v", len(ifaces), err)
	}
	pxe, roce := ifaces[0], ifaces[1]
	if pxe.Links[0].Mode != maas.LinkAuto || pxe.Links[0].Subnet == nil {
		t.Fatalf("pxe links %+v", pxe.Links)
	}
	pxeSubnet := pxe.Links[0].Subnet.ID
	if pxe, err = e.client.UnlinkSubnet(ctx, sid, pxe.ID, pxe.Links[0].ID); err != nil || len(pxe.Links) != 0 {
		t.Fatalf("unlink: %+v %v", pxe.Links, err)
	}
	if pxe, err = e.client.LinkSubnet(ctx, sid, pxe.ID, maas.LinkRequest{Mode: maas.LinkAuto, SubnetID: pxeSubnet}); err != nil || pxe.Links[0].Mode != maas.LinkAuto {
		t.Fatalf("link auto: %+v %v", pxe.Links, err)
	}
	sn, err := e.client.CreateSubnet(ctx, maas.NewSubnet{CIDR: "192.168.50.0/31", Name: "roce-0"})
	if err != nil || sn.CIDR != "192.168.50.0/31" {
		t.Fatalf("create subnet: %+v %v", sn, err)
	}
	subnets, err := e.client.Subnets(ctx)
	if err != nil || len(subnets) != 2 {
		t.Fatalf("subnets: %d %v", len(subnets), err)
	}
	roce, err = e.client.LinkSubnet(ctx, sid, roce.ID, maas.LinkRequest{Mode: maas.LinkStatic, SubnetID: sn.ID, IPAddress: "192.168.50.1"})
	if err != nil || roce.Links[len(roce.Links)-1].IPAddress != "192.168.50.1" {
		t.Fatalf("link static: %+v %v", roce.Links, err)
	}
	for _, mode := range []maas.LinkMode{maas.LinkDHCP, maas.LinkUp} {
		if _, err := e.client.LinkSubnet(ctx, sid, ifaces[2].ID, maas.LinkRequest{Mode: mode, SubnetID: pxeSubnet}); err != nil {
			t.Fatalf("link %s: %v", mode, err)
		}
	}
}

func deployAndSync(t *testing.T, e *env, sid string) {
	ctx := context.Background()
	m, err := e.client.Deploy(ctx, sid, maas.DeployOptions{UserData: []byte("#cloud-config\n"),
		DistroSeries: "gpuaas-ubuntu-2204", EnableHWSync: true})
	if err != nil || m.Status != lifecycle.MaasDeploying || m.OSystem != "custom" || m.DistroSeries != "gpuaas-ubuntu-2204" {
		t.Fatalf("deploy: %s %s/%s %v", m.StatusName, m.OSystem, m.DistroSeries, err)
	}
	e.advance(time.Minute)
	m, _ = e.client.Machine(ctx, sid)
	hs := m.HardwareSync
	if m.Status != lifecycle.MaasDeployed || !hs.Enabled || hs.IntervalSeconds != 900 || hs.LastSync == nil ||
		hs.NextSync == nil || hs.NextSync.Sub(*hs.LastSync) != 900*time.Second || len(m.IPAddresses) == 0 {
		t.Fatalf("deployed machine %+v", m)
	}
	tok, err := e.client.Token(ctx, sid)
	if err != nil || tok == nil || tok.TokenSecret == "" {
		t.Fatalf("token: %v %v", tok, err)
	}
	if st, err := e.client.QueryPowerState(ctx, sid); err != nil || st != "on" {
		t.Fatalf("power state %q %v", st, err)
	}
	if _, err := e.client.PowerOff(ctx, sid, false); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.client.QueryPowerState(ctx, sid); st != "off" {
		t.Fatalf("after power_off: %q", st)
	}
	if _, err := e.client.PowerOn(ctx, sid); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.client.QueryPowerState(ctx, sid); st != "on" {
		t.Fatalf("after power_on: %q", st)
	}
	_ = base64.StdEncoding
}

func decommission(t *testing.T, e *env, sid string) {
	ctx := context.Background()
	m, err := e.client.Release(ctx, sid, maas.ReleaseOptions{Erase: true, QuickErase: true, Comment: "decommission"})
	if err != nil || m.Status != lifecycle.MaasDiskErasing {
		t.Fatalf("release: %s %v", m.StatusName, err)
	}
	e.advance(time.Minute)
	m, _ = e.client.Machine(ctx, sid)
	if m.Status != lifecycle.MaasReady || m.HardwareSync.Enabled || m.HardwareSync.LastSync != nil || m.Owner != "" {
		t.Fatalf("released machine %+v", m)
	}
	if tok, err := e.client.Token(ctx, sid); err != nil || tok != nil {
		t.Fatalf("token after release: %v %v", tok, err)
	}
	if err := e.client.DeleteMachine(ctx, sid); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.Machine(ctx, sid); err == nil {
		t.Fatal("machine still readable after delete")
	}
}
