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
	"github.com/gpuaas/maas-sidecar/sim/maassim"
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
	all, err := e.client.Machines(ctx, lifecycle.MachineFilter{})
	if err != nil || len(all) != 4 {
		t.Fatalf("%d machines, %v", len(all), err)
	}
	hosts := func(ms []lifecycle.Machine) []string {
		out := []string{}
		for _, m := range ms {
			out = append(out, m.Hostname)
		}
		return out
	}
	cases := []struct {
		name string
		f    lifecycle.MachineFilter
		want []string
	}{
		{"ids repeated", lifecycle.MachineFilter{IDs: []string{all[0].SystemID, all[2].SystemID}}, []string{all[0].Hostname, all[2].Hostname}},
		{"hostname", lifecycle.MachineFilter{Hostnames: []string{all[1].Hostname}}, []string{all[1].Hostname}},
		{"mac upper case", lifecycle.MachineFilter{MACAddresses: []string{strings.ToUpper(e.mac(t, all[3].SystemID))}}, []string{all[3].Hostname}},
		{"id and hostname disagree", lifecycle.MachineFilter{IDs: []string{all[0].SystemID}, Hostnames: []string{all[1].Hostname}}, []string{}},
		{"unknown id", lifecycle.MachineFilter{IDs: []string{"nope"}}, []string{}},
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
	m, err := c.CreateMachine(ctx, "gpu-01", lifecycle.BMCLogin{Address: "10.20.0.5", User: "root", Pass: "calvin"})
	if err != nil || m.Status != lifecycle.MaasCommissioning || m.Hostname != "gpu-01" {
		t.Fatalf("create: %+v %v", m, err)
	}
	sid := m.SystemID
	if m, err = c.SetIdentity(ctx, sid, "gpu-01a", lifecycle.BMCLogin{Address: "10.20.0.5", User: "admin", Pass: "pw2"}); err != nil || m.Hostname != "gpu-01a" {
		t.Fatalf("set identity: %+v %v", m, err)
	}
	e.advance(time.Minute)
	if m, _ = c.Machine(ctx, sid); m.Status != lifecycle.MaasReady {
		t.Fatalf("after commissioning: %s", m.Status)
	}
	if acc, err := c.Accept(ctx, sid); err != nil || len(acc) != 0 {
		t.Fatalf("accept of a Ready machine: %+v %v", acc, err)
	}
	if m, err = c.Commission(ctx, sid); err != nil || m.Status != lifecycle.MaasCommissioning {
		t.Fatalf("commission: %v %v", m.Status, err)
	}
	e.advance(time.Minute)
	configureStorage(t, e, sid)
	configureNetwork(t, e, sid)
	deployAndSync(t, e, sid)
	decommission(t, e, sid)
}

func configureStorage(t *testing.T, e *env, sid string) {
	ctx := context.Background()
	disks, err := e.client.Disks(ctx, sid)
	if err != nil || len(disks) != 5 {
		t.Fatalf("block devices: %d %v", len(disks), err)
	}
	var boss lifecycle.Disk
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
	m, err := e.client.SetStorageLayout(ctx, sid, "flat", 0)
	if err != nil || m.BootDiskID != boss.ID {
		t.Fatalf("layout: boot disk %d want %d, %v", m.BootDiskID, boss.ID, err)
	}
}

func configureNetwork(t *testing.T, e *env, sid string) {
	ctx := context.Background()
	ifaces, err := e.client.NICs(ctx, sid)
	if err != nil || len(ifaces) != 3 {
		t.Fatalf("interfaces: %d %v", len(ifaces), err)
	}
	pxe, roce := ifaces[0], ifaces[1]
	if pxe.Links[0].Mode != maas.LinkAuto || pxe.Links[0].SubnetID == 0 {
		t.Fatalf("pxe links %+v", pxe.Links)
	}
	pxeSubnet := pxe.Links[0].SubnetID
	if pxe, err = e.client.Unlink(ctx, sid, pxe.ID, pxe.Links[0].ID); err != nil || len(pxe.Links) != 0 {
		t.Fatalf("unlink: %+v %v", pxe.Links, err)
	}
	if pxe, err = e.client.Link(ctx, sid, pxe.ID, maas.LinkAuto, pxeSubnet, ""); err != nil || pxe.Links[0].Mode != maas.LinkAuto {
		t.Fatalf("link auto: %+v %v", pxe.Links, err)
	}
	sn, err := e.client.CreateSubnet(ctx, "192.168.50.0/31", "roce-0")
	if err != nil || sn.CIDR != "192.168.50.0/31" {
		t.Fatalf("create subnet: %+v %v", sn, err)
	}
	subnets, err := e.client.Subnets(ctx)
	if err != nil || len(subnets) != 2 {
		t.Fatalf("subnets: %d %v", len(subnets), err)
	}
	roce, err = e.client.Link(ctx, sid, roce.ID, maas.LinkStatic, sn.ID, "192.168.50.1")
	if err != nil || roce.Links[len(roce.Links)-1].IP != "192.168.50.1" {
		t.Fatalf("link static: %+v %v", roce.Links, err)
	}
	for _, mode := range []string{maas.LinkDHCP, maas.LinkUp} {
		if _, err := e.client.Link(ctx, sid, ifaces[2].ID, mode, pxeSubnet, ""); err != nil {
			t.Fatalf("link %s: %v", mode, err)
		}
	}
}

func deployAndSync(t *testing.T, e *env, sid string) {
	ctx := context.Background()
	m, err := e.client.Deploy(ctx, sid, lifecycle.DeploySpec{UserData: []byte("#cloud-config\n"),
		DistroSeries: "gpuaas-ubuntu-2204", EnableHWSync: true})
	if err != nil || m.Status != lifecycle.MaasDeploying || m.OSystem != "custom" || m.DistroSeries != "gpuaas-ubuntu-2204" {
		t.Fatalf("deploy: %s %s/%s %v", m.Status, m.OSystem, m.DistroSeries, err)
	}
	e.advance(time.Minute)
	m, _ = e.client.Machine(ctx, sid)
	if m.Status != lifecycle.MaasDeployed || !m.HWSyncEnabled || m.SyncInterval != 900*time.Second || m.LastSync == nil ||
		m.NextSync == nil || m.NextSync.Sub(*m.LastSync) != 900*time.Second || len(m.IPs) == 0 {
		t.Fatalf("deployed machine %+v", m)
	}
	tok, err := e.client.MachineToken(ctx, sid)
	if err != nil || tok == nil || tok.TokenSecret.Empty() {
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
	m, err := e.client.Release(ctx, sid, lifecycle.ReleaseSpec{Erase: lifecycle.EraseQuick, Comment: "decommission"})
	if err != nil || m.Status != lifecycle.MaasDiskErasing {
		t.Fatalf("release: %s %v", m.Status, err)
	}
	e.advance(time.Minute)
	m, _ = e.client.Machine(ctx, sid)
	if m.Status != lifecycle.MaasReady || m.HWSyncEnabled || m.LastSync != nil || m.Owner != "" {
		t.Fatalf("released machine %+v", m)
	}
	if tok, err := e.client.MachineToken(ctx, sid); err != nil || tok != nil {
		t.Fatalf("token after release: %v %v", tok, err)
	}
	if err := e.client.DeleteMachine(ctx, sid); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.Machine(ctx, sid); err == nil {
		t.Fatal("machine still readable after delete")
	}
}

// TestMachineArchitecture: a machine carries MAAS's architecture, and its
// Debian part picks the agent package.
func TestMachineArchitecture(t *testing.T) {
	e := newEnv(t, 1)
	ctx := context.Background()
	seeded, err := e.client.Machines(ctx, lifecycle.MachineFilter{})
	if err != nil || len(seeded) != 1 {
		t.Fatalf("%d machines, %v", len(seeded), err)
	}
	arm, err := e.sim.AddMachine(maassim.HostSpec{Arch: "arm64/generic"}, "grace-1", maassim.StatusReady)
	if err != nil {
		t.Fatal(err)
	}
	all, err := e.client.Machines(ctx, lifecycle.MachineFilter{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, m := range all {
		got[m.Hostname] = [2]string{m.Architecture, m.DebianArch()}
	}
	want := map[string][2]string{seeded[0].Hostname: {"amd64/generic", "amd64"}, "grace-1": {"arm64/generic", "arm64"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("architectures (-want +got):\n%s", d)
	}
	if m, err := e.client.Machine(ctx, arm); err != nil || m.Architecture != "arm64/generic" {
		t.Errorf("Machine(%s) = %+v, %v", arm, m, err)
	}
}

// A request whose site lease has lapsed, or whose context has ended, is
// never sent: MAAS sees nothing.
func TestNoRequestOnceTheLeaseLapsedOrContextEnded(t *testing.T) {
	lapsed := lifecycle.Errorf(lifecycle.CodeConflict, "runner", "lease lapsed")
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		code lifecycle.Code
	}{
		{"lease lapsed", lifecycle.WithLeaseCheck(context.Background(), func() error { return lapsed }), lifecycle.CodeConflict},
		{"context ended", ended, lifecycle.CodeUnavailable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, 1)
			ms, err := e.client.Machines(context.Background(), lifecycle.MachineFilter{})
			if err != nil {
				t.Fatal(err)
			}
			before := e.requests.Load()
			_, err = e.client.Deploy(c.ctx, ms[0].SystemID, lifecycle.DeploySpec{})
			if lifecycle.ErrorCode(err) != c.code {
				t.Fatalf("deploy: %v, want code %s", err, c.code)
			}
			if n := e.requests.Load() - before; n != 0 {
				t.Fatalf("%d requests reached MAAS", n)
			}
		})
	}
}

// TestMachineBootMAC: a machine carries the MAC of MAAS's boot_interface
// (its PXE NIC), New machines included.
func TestMachineBootMAC(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	sid, err := e.sim.AddMachine(maassim.HostSpec{PXEMAC: "52:54:00:aa:bb:01"}, "", maassim.StatusNew)
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.client.Machine(ctx, sid)
	if err != nil || m.BootMAC != "52:54:00:aa:bb:01" {
		t.Fatalf("boot MAC %q, %v; want 52:54:00:aa:bb:01", m.BootMAC, err)
	}
}
