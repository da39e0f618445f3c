//go:build dev

package main_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// tryXid79 is make run's health scenario: an Xid 79 written into a third
// active node's simulated host during its tenancy turns the node
// critical within a few of dev mode's 5 s watch intervals, quarantines
// it and starts its repair run; `node health` names the Xid, the node
// list shows it out of service, and /metrics counts the quarantine.
func tryXid79(t *testing.T, out *lockedBuffer, state string) {
	t.Helper()
	sim, addr := xidLine.FindStringSubmatch(out.String()), adminLine.FindStringSubmatch(out.String())
	if sim == nil || addr == nil {
		t.Fatalf("the banner names no fault line:\n%s", out.String())
	}
	cli := func(args ...string) (string, error) {
		cmd := exec.Command(binary, append(args, "--state-dir", state, "--addr", addr[1])...)
		cmd.Env = cleanEnv()
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	var id, host string
	for _, n := range listNodes(t, cli).Nodes {
		if n.Status == "active" {
			id, host = n.ID, n.Hostname
		}
	}
	if id == "" {
		t.Fatal("no active node left for the Xid 79")
	}
	resp, err := http.Post(sim[1]+"_sim/booted/"+host+"/residue", "application/json", strings.NewReader(`{"xid":79}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("injecting the Xid 79 into %s: %v %v", host, err, resp)
	}
	resp.Body.Close()
	var v answer.NodeHealthView
	for end := time.Now().Add(45 * time.Second); v.Health.Verdict != lifecycle.HealthCritical; time.Sleep(500 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("node %s not critical within 45 s of an Xid 79: %+v", id, v.Health)
		}
		if got, err := cli("node", "health", id, "-o", "json"); err == nil {
			v = answer.NodeHealthView{}
			_ = json.Unmarshal([]byte(got), &v)
		}
	}
	if !strings.Contains(v.Health.Reason+checkReasons(v.Health), "Xid 79") {
		t.Errorf("critical health names no Xid 79: %+v", v.Health)
	}
	if st := nodeStatus(t, cli, id); st != "quarantined" && st != "repair_required" {
		t.Errorf("node %s is %q after a critical verdict, want quarantined (or repair_required once its repair judged it)", id, st)
	}
	if got, err := cli("repair", "list", "--node", id); err != nil || !strings.Contains(got, host) {
		t.Errorf("no repair run listed for %s: %v\n%s", id, err, got)
	}
	m, err := http.Get("http://" + addr[1] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(m.Body)
	m.Body.Close()
	if !strings.Contains(string(body), "maas_sidecar_node_health_quarantines_total 1") {
		t.Errorf("/metrics does not count the quarantine:\n%s", metricLines(string(body), "node_health"))
	}
}

func checkReasons(h lifecycle.NodeHealth) string {
	var b strings.Builder
	for _, c := range h.Checks {
		b.WriteString(c.Reason + "\n")
	}
	return b.String()
}

func metricLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
