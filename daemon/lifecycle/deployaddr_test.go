package lifecycle_test

import (
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestDeployAddress(t *testing.T) {
	nics := []lifecycle.NIC{
		{Name: "eno8303", Links: []lifecycle.NICLink{{IP: "10.16.0.5"}}},
		{Name: "ens1f0np0", Links: []lifecycle.NICLink{{Mode: "link_up"}, {IP: "10.99.0.7"}}},
		{Name: "ens2f0np0", Links: []lifecycle.NICLink{{Mode: "link_up"}}},
	}
	m := lifecycle.Machine{IPs: []string{"10.16.0.5", "10.99.0.7"}}
	cases := []struct {
		name, iface  string
		nics         []lifecycle.NIC
		m            lifecycle.Machine
		addr, source string
	}{
		{"iface address", "ens1f0np0", nics, m, "10.99.0.7", "deploy_ssh_iface ens1f0np0"},
		{"iface without address", "ens2f0np0", nics, m, "10.16.0.5", "first MAAS IP (deploy_ssh_iface ens2f0np0 has no address)"},
		{"iface absent", "bond0", nics, m, "10.16.0.5", "first MAAS IP (deploy_ssh_iface bond0 has no address)"},
		{"no NICs known", "ens1f0np0", nil, m, "10.16.0.5", "first MAAS IP (deploy_ssh_iface ens1f0np0 has no address)"},
		{"no address at all", "ens2f0np0", nics[2:], lifecycle.Machine{}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			addr, source := lifecycle.DeployAddress(c.nics, c.iface, c.m)
			if addr != c.addr || source != c.source {
				t.Fatalf("got %q (%s), want %q (%s)", addr, source, c.addr, c.source)
			}
		})
	}
}
