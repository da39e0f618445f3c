//go:build e2e

package system

import (
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// decomActive onboards hosts as one batch, waits for every run to
// complete and returns each host's node id.
func (w *world) decomActive(hosts ...string) map[string]string {
	w.t.Helper()
	batch, _ := w.onboard(hosts...)
	if r := w.daemon.cli("", "onboarding", "watch", "--batch", batch); r.code != 0 {
		w.t.Fatalf("onboarding watch: %s", r)
	}
	ids := map[string]string{}
	for h, r := range w.runs(batch) {
		if r.NodeID == "" {
			w.t.Fatalf("%s: onboarding %s ended without a node", h, r.ID)
		}
		ids[h] = r.NodeID
	}
	return ids
}

// decomStart starts a decommission through `node decommission` and
// returns its id; flags are extra flags such as "--storage-cleanup", "all".
func (w *world) decomStart(node, mode string, flags ...string) string {
	w.t.Helper()
	var out struct {
		ID string `json:"decommission_id"`
	}
	args := append([]string{"node", "decommission", node, "--mode", mode, "--reason", "e2e: " + mode}, flags...)
	w.daemon.json(&out, args...)
	if out.ID == "" {
		w.t.Fatalf("node decommission %s --mode %s returned no id", node, mode)
	}
	return out.ID
}

// decomWatch follows a decommission with `decommission watch` until it
// settles, and returns the CLI's result (exit 0 only when completed)
// followed by `decommission get`'s table.
func (w *world) decomWatch(id string) result {
	w.t.Helper()
	r := w.daemon.cli("", "decommission", "watch", id)
	if g := w.daemon.cli("", "decommission", "get", id); g.code == 0 {
		r.stdout += "\n" + g.stdout
	}
	return r
}

// decomView is `decommission get -o json`: the run, its events and its
// agent tasks with their evidence decoded.
type decomView struct {
	Decommission lifecycle.Run
	Events       []lifecycle.RunEvent
	Tasks        []decomTask
}

// decomTask is one agent task of a decommission.
type decomTask struct {
	ID, Type, State, Message string
	Success                  *bool
	Evidence                 *wire.Evidence
}

// decomGet reads a decommission through the CLI.
func (w *world) decomGet(id string) decomView {
	w.t.Helper()
	var v decomView
	w.daemon.json(&v, "decommission", "get", id)
	return v
}

// task returns the decommission's last task of type typ; ok is false
// when it has none.
func (v decomView) task(typ lifecycle.TaskType) (decomTask, bool) {
	for i := len(v.Tasks) - 1; i >= 0; i-- {
		if v.Tasks[i].Type == string(typ) {
			return v.Tasks[i], true
		}
	}
	return decomTask{}, false
}

// passed reports whether the task succeeded with passing evidence.
func (t decomTask) passed() bool {
	return t.State == string(lifecycle.TaskSucceeded) && t.Success != nil && *t.Success && t.Evidence != nil && t.Evidence.Passed
}

// decomNode reads a node through `node get -o json`; found is false
// when the daemon answers that there is no such node.
func (w *world) decomNode(id string) (n lifecycle.Node, found bool) {
	w.t.Helper()
	r := w.daemon.cli("", "node", "get", id, "-o", "json")
	if r.code != 0 {
		if strings.Contains(strings.ToLower(r.stderr), "not found") {
			return n, false
		}
		w.t.Fatalf("node get %s: %s", id, r)
	}
	var out struct{ Node lifecycle.Node }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		w.t.Fatalf("node get %s -o json: %v\n%s", id, err, r.stdout)
	}
	return out.Node, true
}

// decomMark is a position in the simulator's request log.
func (s *sim) decomMark() int { return len(s.requests()) }

// decomEffectsSince counts the accepted side-effect calls on host's
// machine after mark, by op.
func (s *sim) decomEffectsSince(mark int, host string) map[string]int {
	s.t.Helper()
	out := map[string]int{}
	sid := s.machines[host].systemID
	for _, r := range s.requests()[mark:] {
		got, ok := machinePath(r.Path)
		if ok && got == sid && r.Method == http.MethodPost && r.Status/100 == 2 && sideEffects[r.Op] {
			out[r.Op]++
		}
	}
	return out
}

// decomMachine reads host's machine through the simulated MAAS API.
func (s *sim) decomMachine(host string) (status, power string) {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.url+"api/2.0/machines/"+s.machines[host].systemID+"/", nil)
	key := strings.Split(apiKey, ":")
	nonce := make([]byte, 8)
	_, _ = rand.Read(nonce)
	req.Header.Set("Authorization", fmt.Sprintf(`OAuth oauth_version="1.0", oauth_signature_method="PLAINTEXT", `+
		`oauth_consumer_key="%s", oauth_token="%s", oauth_signature="&%s", oauth_nonce="%s", oauth_timestamp="%d"`,
		key[0], key[1], key[2], hex.EncodeToString(nonce), time.Now().Unix()))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("GET machine %s: %v", host, err)
	}
	defer resp.Body.Close()
	var m struct {
		StatusName string `json:"status_name"`
		PowerState string `json:"power_state"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&m) != nil {
		s.t.Fatalf("GET machine %s: %s", host, resp.Status)
	}
	return m.StatusName, m.PowerState
}

// decomIdentity is a booted agent's certificate and key, copied off its
// host so that they can be presented after the host is reinstalled.
type decomIdentity struct {
	cert tls.Certificate
	ca   *x509.CertPool
}

// decomAgentIdentity copies host's agent identity from its state dir.
func (s *sim) decomAgentIdentity(host string) decomIdentity {
	s.t.Helper()
	dir := filepath.Join(s.bootDir, host, "var/lib/gpuaas-node-agent")
	cert, err := tls.LoadX509KeyPair(filepath.Join(dir, "agent.crt"), filepath.Join(dir, "agent.key"))
	if err != nil {
		s.t.Fatalf("%s's agent identity: %v", host, err)
	}
	ca, err := os.ReadFile(filepath.Join(dir, "ca.pem"))
	if err != nil {
		s.t.Fatalf("%s's agent CA: %v", host, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		s.t.Fatalf("%s's agent CA does not parse", host)
	}
	return decomIdentity{cert: cert, ca: pool}
}

// serial is the certificate's serial as the daemon records it.
func (i decomIdentity) serial(t *testing.T) string {
	t.Helper()
	c, err := x509.ParseCertificate(i.cert.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	return c.SerialNumber.Text(16)
}

// decomAgentCall presents id to the daemon's agent API as node's agent,
// posting a result for a task that does not exist, and returns the HTTP
// status: 401 or 403 when the certificate is refused, another status
// (the unknown task) when it is accepted.
func (w *world) decomAgentCall(id decomIdentity, node string) int {
	w.t.Helper()
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{
		Certificates: []tls.Certificate{id.cert}, RootCAs: id.ca, ServerName: "127.0.0.1"}}}
	path := strings.NewReplacer("{id}", node, "{task_id}", "e2e-no-such-task").Replace(wire.RouteResult)
	resp, err := c.Post("https://"+w.daemon.agentAddr+path, "application/json", strings.NewReader(`{"seq":1}`))
	if err != nil {
		w.t.Fatalf("agent API call: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
