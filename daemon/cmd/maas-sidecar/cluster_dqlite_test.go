//go:build dqlite && integration

package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/evidence/cert"
	"github.com/gpuaas/maas-sidecar/daemon/pki"
	"github.com/gpuaas/maas-sidecar/internal/freeport"
)

// member is one daemon of the test cluster.
type member struct {
	*proc
	name, state, raft string
}

// startMember runs serve on the dqlite store as daemon name, its Raft
// member at raft, joining join.
func startMember(t *testing.T, name, state, raft string, join ...string) *member {
	t.Helper()
	joins, _ := json.Marshal(join)
	cfg := fmt.Sprintf("daemon_name: %s\nstore:\n  backend: dqlite\n  dqlite:\n    address: %s\n    join: %s\n", name, raft, joins)
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return &member{proc: startServe(t, state, nil, "--config", path), name: name, state: state, raft: raft}
}

// sharedPKIFiles are the files every member of a cluster shares.
var sharedPKIFiles = []string{pki.CACertFile, pki.CAKeyFile, pki.StoreCACertFile, pki.StoreCAKeyFile, pki.SigningKeyFile, cert.SiteKeyFile}

// sharePKI copies names from the first member's pki/ into state's, as
// the operator does before a member's first start.
func sharePKI(t *testing.T, from, state string, names ...string) {
	t.Helper()
	dir := filepath.Join(state, "pki")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(from, "pki", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// api calls the member's admin API with its own bootstrap token.
func (m *member) api(t *testing.T, method, path string, body any) (int, []byte) {
	t.Helper()
	var rd bytes.Buffer
	if body != nil {
		_ = json.NewEncoder(&rd).Encode(body)
	}
	req, _ := http.NewRequest(method, "http://"+m.addr+"/api/v1/admin"+path, &rd)
	req.Header.Set("Authorization", "Bearer "+readToken(t, m.state))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Audit-Reason", "cluster test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	_, _ = out.ReadFrom(resp.Body)
	return resp.StatusCode, out.Bytes()
}

// clusterStatus runs `maas-sidecar cluster status -o json` against m.
func (m *member) clusterStatus(t *testing.T) clusterAnswer {
	t.Helper()
	cmd := exec.Command(binary, "cluster", "status", "-o", "json", "--addr", m.addr,
		"--token-file", filepath.Join(m.state, "admin.token"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cluster status: %v\n%s", err, out)
	}
	var a clusterAnswer
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatalf("cluster status: %v\n%s", err, out)
	}
	return a
}

type clusterAnswer struct {
	Cluster struct {
		Backend, Daemon, Self, Leader string
		Clustered                     bool
		Members                       []struct{ Address, Role string }
	}
	Leases []struct {
		SiteID string `json:"site_id"`
		Holder string
		Epoch  uint64
	}
}

// TestClusterOfTwoDaemons: two serve processes on one dqlite store, the
// second joining the first with a copy of its pki/: both ready, a site
// created through one is read through the other, cluster status lists
// both members, the leader and one lease holder. A daemon with another
// CA, or the CA but another task-signing key, refuses to join.
func TestClusterOfTwoDaemons(t *testing.T) {
	root := t.TempDir()
	stateA, stateB := filepath.Join(root, "a"), filepath.Join(root, "b")
	raftA, raftB := freeport.Addr(t), freeport.Addr(t)
	a := startMember(t, "region-a", stateA, raftA)
	a.waitReady()
	sharePKI(t, stateA, stateB, sharedPKIFiles...)
	b := startMember(t, "region-b", stateB, raftB, raftA)
	b.waitReady()

	code, body := a.api(t, http.MethodPost, "/maas-sites", map[string]any{"name": "dc1", "region_code": "dc1",
		"api_base_url": "http://127.0.0.1:1/MAAS", "pxe_iface": "ens19", "pxe_vlan_vid": 46, "node_pxe_iface": "eno8303"})
	if code != http.StatusCreated {
		t.Fatalf("create site through region-a: %d %s", code, body)
	}
	var site struct{ ID string }
	_ = json.Unmarshal(body, &site)
	if code, body := b.api(t, http.MethodGet, "/maas-sites/"+site.ID, nil); code != http.StatusOK {
		t.Fatalf("site through region-b: %d %s", code, body)
	}

	var st clusterAnswer
	deadline := time.Now().Add(15 * time.Second)
	for {
		st = b.clusterStatus(t)
		if len(st.Leases) == 1 && st.Leases[0].Holder != "" || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	c := st.Cluster
	if c.Backend != "dqlite" || !c.Clustered || c.Daemon != "region-b" || c.Self != raftB || len(c.Members) != 2 {
		t.Fatalf("cluster %+v, want dqlite, region-b at %s, two members", c, raftB)
	}
	addrs := map[string]bool{c.Members[0].Address: true, c.Members[1].Address: true}
	if !addrs[raftA] || !addrs[raftB] || !addrs[c.Leader] {
		t.Errorf("members %+v, leader %s: want %s and %s, the leader one of them", c.Members, c.Leader, raftA, raftB)
	}
	if len(st.Leases) != 1 || st.Leases[0].SiteID != site.ID || (st.Leases[0].Holder != "region-a" && st.Leases[0].Holder != "region-b") ||
		st.Leases[0].Epoch == 0 {
		t.Fatalf("leases %+v, want site %s held by region-a or region-b", st.Leases, site.ID)
	}

	// Each daemon kept its own bootstrap token: region-a's still works.
	if code, body := a.api(t, http.MethodGet, "/cluster", nil); code != http.StatusOK {
		t.Errorf("region-a's token after region-b started: %d %s", code, body)
	}

	t.Run("another CA", func(t *testing.T) {
		refused(t, startMember(t, "region-c", filepath.Join(root, "c"), freeport.Addr(t), raftA), "does not accept")
	})
	t.Run("another signing key", func(t *testing.T) {
		state := filepath.Join(root, "d")
		sharePKI(t, stateA, state, pki.CACertFile, pki.CAKeyFile, pki.StoreCACertFile, pki.StoreCAKeyFile, cert.SiteKeyFile)
		refused(t, startMember(t, "region-d", state, freeport.Addr(t), raftA), "signs agent tasks with another key")
	})
	t.Run("another evidence site key", func(t *testing.T) {
		state := filepath.Join(root, "e")
		sharePKI(t, stateA, state, pki.CACertFile, pki.CAKeyFile, pki.StoreCACertFile, pki.StoreCAKeyFile, pki.SigningKeyFile)
		refused(t, startMember(t, "region-e", state, freeport.Addr(t), raftA), "signs clean certificates with another evidence site key")
	})

	// region-b stops gracefully (leases released, leadership handed over)
	stop(t, b.proc)
}

// refused waits for m to exit 1 with message in its log.
func refused(t *testing.T, m *member, message string) {
	t.Helper()
	select {
	case <-m.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s still runs; log:\n%s", m.name, m.log())
	}
	if code := m.cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(m.log(), message) ||
		!strings.Contains(m.log(), "copy ca.crt, ca.key, store-ca.crt, store-ca.key, task-signing.key and evidence-site.key from the first member's state_dir/pki") {
		t.Fatalf("%s: exit %d, want 1 with %q; log:\n%s", m.name, code, message, m.log())
	}
}
