package reconcile_test

import (
	"context"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// A deployed host whose address changed gets the address onboarding
// would give it: the one on the site's deploy_ssh_iface, not the first
// MAAS IP (its PXE NIC's).
func TestIPChangedFollowsTheDeploySSHIface(t *testing.T) {
	const sshIface, sshIP = "ens1f0np0", "10.99.0.7"
	e := newSimEnv(t, func(s *lifecycle.Site, _ *lifecycle.SitePolicy) { s.DeploySSHIface = sshIface })
	ctx := context.Background()
	sid, err := e.sim.AddMachine(maassim.HostSpec{}, "gpu-a1", maassim.StatusReady)
	must(t, err)
	sn, err := e.client.CreateSubnet(ctx, "10.99.0.0/24", "deploy SSH network")
	must(t, err)
	nics, err := e.client.NICs(ctx, sid)
	must(t, err)
	var nicID int
	for _, n := range nics {
		if n.Name == sshIface {
			nicID = n.ID
		}
	}
	_, err = e.client.Link(ctx, sid, nicID, "static", sn.ID, sshIP)
	must(t, err)
	_, err = e.client.Deploy(ctx, sid, lifecycle.DeploySpec{DistroSeries: "jammy"})
	must(t, err)
	m := e.deployed(sid)
	if len(m.IPs) < 2 || m.IPs[0] == sshIP {
		t.Fatalf("machine IPs %v: want the PXE NIC's address first, then %s", m.IPs, sshIP)
	}
	id := e.bind(sid, "10.99.0.3")
	e.pass()
	n, err := e.store.GetNode(ctx, id)
	must(t, err)
	st, err := e.store.GetNodeMaasState(ctx, id)
	must(t, err)
	if n.Host != sshIP || st.DriftRule != lifecycle.DriftIPChanged || st.DriftDetails["new_host_source"] != "deploy_ssh_iface "+sshIface {
		t.Fatalf("host %q (want %s), drift %s %v", n.Host, sshIP, st.DriftRule, st.DriftDetails)
	}
}

// deployed waits for machine sid to reach Deployed.
func (e *simEnv) deployed(sid string) lifecycle.Machine {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m, err := e.client.Machine(context.Background(), sid)
		must(e.t, err)
		if m.Status == lifecycle.MaasDeployed {
			return m
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("machine %s %s, not Deployed", sid, m.Status)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
