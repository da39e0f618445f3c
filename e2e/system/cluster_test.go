//go:build e2e && dqlite

package system

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// leaseTTL is the members' store.lease_ttl: short, so that a survivor
// takes a dead member's site within the failover bound.
const leaseTTL = 5 * time.Second

// cluster is three `maas-sidecar serve` daemons, built with the dqlite
// store, forming one store cluster on loopback, each with its own state
// dir; they share one Vault, the first member's pki/ (CA and
// task-signing key) and the agent proxy the booted agents dial.
type cluster struct {
	*world
	members []*daemon
	names   []string
	raft    []string
	proxy   *agentProxy
}

// newCluster starts Vault, the simulator and three members, and sets the
// site up through the first.
func newCluster(t *testing.T, o simOptions) *cluster {
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
	for i := range 3 {
		var join []string
		if i > 0 {
			join = c.raft[:1]
		}
		d := c.newMember(v, bin, i, join)
		if i > 0 {
			copyPKI(t, c.members[0].stateDir, d.stateDir)
		}
		d.start()
	}
	c.daemon = c.members[0]
	c.createSite()
	return c
}

// newMember writes member i's config: the dqlite store at its Raft
// address joining join, daemon_name region-<x>, the short lease TTL, and
// the agent proxy as the agents' URL.
func (c *cluster) newMember(v vault, bin string, i int, join []string) *daemon {
	t := c.t
	dir := t.TempDir()
	d := &daemon{t: t, config: filepath.Join(dir, "config.yaml"), stateDir: filepath.Join(dir, "state"),
		adminAddr: freeport.Addr(t), agentAddr: freeport.Addr(t), bin: bin, name: c.names[i]}
	joins := "[]"
	if len(join) > 0 {
		joins = "[" + strings.Join(join, ", ") + "]"
	}
	cfg := fmt.Sprintf(`admin_listen: %s
state_dir: %s
log_level: debug
shutdown_timeout: 5s
poll_interval: 100ms
daemon_name: %s
store:
  backend: dqlite
  lease_ttl: %s
  dqlite:
    address: %s
    join: %s
agent:
  listen: %s
  url: https://%s
  cert_hosts: [127.0.0.1]
  package_url: http://127.0.0.1:9/gpuaas-node-agent_0.1.0_amd64.deb
  package_sha256: %s
connectivity:
  port: 0
vault:
  address: %s
  token_file: %s
`, d.adminAddr, d.stateDir, c.names[i], leaseTTL, c.raft[i], joins, d.agentAddr, c.proxy.addr(),
		strings.Repeat("ab", 32), v.addr, v.tokenFile)
	if err := os.WriteFile(d.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c.members = append(c.members, d)
	c.proxy.add(d.agentAddr)
	return d
}

// copyPKI copies the first member's CAs and task-signing key into
// state/pki, as the operator does before a member's first start (the
// members use Vault, so the evidence site key is in Vault, not a file).
func copyPKI(t *testing.T, from, state string) {
	t.Helper()
	dir := filepath.Join(state, "pki")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"ca.crt", "ca.key", "store-ca.crt", "store-ca.key", "task-signing.key"} {
		b, err := os.ReadFile(filepath.Join(from, "pki", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// leaseView is the site's lease as `cluster status` shows it.
type leaseView struct {
	SiteID string `json:"site_id"`
	Holder string
	Epoch  uint64
}

// lease asks member i for the site's lease.
func (c *cluster) lease(i int) leaseView {
	c.t.Helper()
	l, err := c.tryLease(i)
	if err != nil {
		c.t.Fatal(err)
	}
	return l
}

// tryLease asks member i for the site's lease; an error when the member
// cannot answer (an election under way, no quorum).
func (c *cluster) tryLease(i int) (leaseView, error) {
	r := c.members[i].cli("", "cluster", "status", "-o", "json")
	if r.code != 0 {
		return leaseView{}, fmt.Errorf("maas-sidecar cluster status -o json through %s: %s", c.names[i], r)
	}
	var st struct{ Leases []leaseView }
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		return leaseView{}, fmt.Errorf("cluster status through %s: %v\n%s", c.names[i], err, r.stdout)
	}
	for _, l := range st.Leases {
		if l.SiteID == c.site {
			return l, nil
		}
	}
	return leaseView{}, nil
}

// waitLease waits until member i sees the site held by a holder ok accepts.
func (c *cluster) waitLease(i int, timeout time.Duration, ok func(leaseView) bool) leaseView {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		// While an election runs (the frozen or killed member was the
		// Raft leader) a member may not answer: ask again.
		l, err := c.tryLease(i)
		if err == nil && l.Holder != "" && ok(l) {
			return l
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("member %s: lease %+v after %v (%v)", c.names[i], l, timeout, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// member is the index of the daemon named name.
func (c *cluster) member(name string) int {
	for i, n := range c.names {
		if n == name {
			return i
		}
	}
	c.t.Fatalf("no member %q", name)
	return -1
}

// other is a member other than all of not.
func (c *cluster) other(not ...int) int {
next:
	for i := range c.members {
		for _, n := range not {
			if i == n {
				continue next
			}
		}
		return i
	}
	return -1
}

// signal sends sig to member i's process group.
func (c *cluster) signal(i int, sig syscall.Signal) {
	c.t.Helper()
	if err := syscall.Kill(-c.members[i].proc.cmd.Process.Pid, sig); err != nil {
		c.t.Fatalf("%v to %s: %v", sig, c.names[i], err)
	}
}

// runEvent is one event of a run, from `onboarding get`; Holder and
// Epoch name the daemon and lease epoch that wrote it.
type runEvent struct {
	Stage, Status string
	Seq           uint64
	OccurredAt    time.Time `json:"occurred_at"`
	Holder        string
	Epoch         uint64
}

// events reads run id's events through member i.
func (c *cluster) events(i int, id string) []runEvent {
	c.t.Helper()
	var out struct{ Events []runEvent }
	c.members[i].json(&out, "onboarding", "get", id)
	return out.Events
}

// firstEventAfter is the earliest event of the runs that occurred after at.
func (c *cluster) firstEventAfter(i int, ids map[string]string, at time.Time) (string, runEvent, bool) {
	var host string
	var first runEvent
	for h, id := range ids {
		for _, e := range c.events(i, id) {
			if e.OccurredAt.After(at) && (first.OccurredAt.IsZero() || e.OccurredAt.Before(first.OccurredAt)) {
				host, first = h, e
			}
		}
	}
	return host, first, !first.OccurredAt.IsZero()
}

// requestsBy are the request log's lines whose User-Agent names daemon.
func (s *sim) requestsBy(daemon string) []request {
	var out []request
	for _, r := range s.requests() {
		if strings.Contains(r.UserAgent, "("+daemon+")") {
			out = append(out, r)
		}
	}
	return out
}
