//go:build e2e && dqlite

package system

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// storeCut is member cut of a cluster, run in a network namespace of its
// own: the test bridges in Vault, MAAS and the other members' store
// ports, and bridges out its admin, agent and store ports. Cutting the
// store bridges leaves the member answering its agents and reaching
// MAAS and Vault, but cut off from the store, in both directions.
type storeCut struct {
	member int
	store  []*bridge
}

// newCutCluster is newCluster with its last member in a namespace.
func newCutCluster(t *testing.T, o simOptions) (*cluster, *storeCut) {
	t.Helper()
	vaultBin := requireBinaries(t)
	bin := requireDqliteDaemon(t)
	c := &cluster{proxy: startAgentProxy(t)}
	v := startVault(t, vaultBin)
	c.world = &world{t: t, sim: startSim(t, o)}
	for i := range 3 {
		c.names = append(c.names, fmt.Sprintf("region-%c", 'a'+i))
		c.raft = append(c.raft, freeport.Addr(t))
	}
	cut := &storeCut{member: 2}
	ns := newNetns(t)
	for i := range 3 {
		var join []string
		if i > 0 {
			join = c.raft[:1]
		}
		d := c.newMember(v, bin, i, join)
		if i > 0 {
			copyPKI(t, c.members[0].stateDir, d.stateDir)
		}
		if i != cut.member {
			d.start()
			continue
		}
		ns.bridgeIn(hostPort(t, v.addr))
		ns.bridgeIn(hostPort(t, c.sim.url))
		for _, peer := range c.raft[:i] {
			cut.store = append(cut.store, ns.bridgeIn(peer))
		}
		cut.store = append(cut.store, ns.bridgeOut(c.raft[i]))
		ns.bridgeOut(d.adminAddr)
		ns.bridgeOut(d.agentAddr)
		d.startIn(ns)
	}
	c.daemon = c.members[0]
	c.createSite()
	return c, cut
}

// setCut cuts the member off from the store (on) or reconnects it.
func (s *storeCut) setCut(on bool) {
	for _, b := range s.store {
		b.cut(on)
	}
}

// startIn starts the daemon inside ns, as start does on the host.
func (d *daemon) startIn(ns *netns) {
	d.t.Helper()
	d.incarnations++
	d.proc = startProc(d.t, fmt.Sprintf("%s #%d (own network namespace)", d.name, d.incarnations), nil,
		"ip", "netns", "exec", ns.name, d.bin, "serve", "--config", d.config)
	d.proc.waitLine(60*time.Second, `"admin listener bound"`, d.adminAddr)
	d.proc.waitLine(30*time.Second, `"agent listener bound"`, d.agentAddr)
	d.proc.waitLine(30*time.Second, `"maas-sidecar ready"`)
}

// hostPort is the host:port of a URL.
func hostPort(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		t.Fatalf("no host:port in %q: %v", raw, err)
	}
	return u.Host
}
