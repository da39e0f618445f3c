//go:build dev

package main_test

import (
	"encoding/json"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

var xidLine = regexp.MustCompile(`curl -s -X POST (\S+)_sim/booted/<hostname>/residue -d '\{"xid":48\}'`)

// devDecom is `decommission get -o json` as these tests read it.
type devDecom struct {
	Decommission struct {
		Status       string
		CurrentStage string `json:"current_stage"`
		ErrorMessage string `json:"error_message"`
	}
	Tasks []struct {
		Type     string
		Evidence *wire.Evidence
	}
}

func (d devDecom) diag(typ string) *wire.DiagEvidence {
	for i := len(d.Tasks) - 1; i >= 0; i-- {
		if d.Tasks[i].Type == typ && d.Tasks[i].Evidence != nil {
			return d.Tasks[i].Evidence.Diag
		}
	}
	return nil
}

// tryXidTurnover follows the banner's fault line on a second active
// node: an Xid 48 written into its simulated host through the simulator,
// then a soft reset, which ends with the node quarantined, the history
// in the scrub's evidence and the DCGM diagnostic escalated from level 1
// to 2 and failed, all in `decommission get`. The clean turnover before
// it (tryTurnover) passed DCGM level 1.
func tryXidTurnover(t *testing.T, out *lockedBuffer, state string) {
	t.Helper()
	sim, addr := xidLine.FindStringSubmatch(out.String()), adminLine.FindStringSubmatch(out.String())
	if sim == nil || addr == nil {
		t.Fatalf("the banner names no Xid fault line:\n%s", out.String())
	}
	cli := func(args ...string) (string, error) {
		cmd := exec.Command(binary, append(args, "--state-dir", state, "--addr", addr[1])...)
		cmd.Env = cleanEnv()
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	nodes := listNodes(t, cli)
	var id, host string
	for _, n := range nodes.Nodes {
		if n.Status == "active" && !strings.Contains(out.String(), "node decommission "+n.ID+" ") {
			id, host = n.ID, n.Hostname
			break
		}
	}
	if id == "" {
		t.Fatalf("no second active node in %+v", nodes)
	}
	resp, err := http.Post(sim[1]+"_sim/booted/"+host+"/residue", "application/json", strings.NewReader(`{"xid":48}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("injecting the Xid into %s: %v %v", host, err, resp)
	}
	resp.Body.Close()
	got, err := cli("node", "decommission", id, "--mode", "soft_reset", "--reason", "tenant turnover after an Xid", "-o", "json")
	var res struct {
		ID string `json:"decommission_id"`
	}
	if err != nil || json.Unmarshal([]byte(got), &res) != nil || res.ID == "" {
		t.Fatalf("node decommission: %v %q", err, got)
	}
	if w, err := cli("decommission", "watch", res.ID); err == nil {
		t.Fatalf("decommission watch ended well after an Xid 48:\n%s", w)
	}
	raw, err := cli("decommission", "get", res.ID, "-o", "json")
	var d devDecom
	if err != nil || json.Unmarshal([]byte(raw), &d) != nil {
		t.Fatalf("decommission get: %v\n%s", err, raw)
	}
	if d.Decommission.Status != "failed_manual_intervention" || !strings.Contains(d.Decommission.ErrorMessage, "Xid 48") {
		t.Errorf("decommission %+v; want failed_manual_intervention naming the Xid 48", d.Decommission)
	}
	if dg := d.diag("node.validate_clean"); dg == nil || dg.RequestedLevel != 1 || dg.Level != 2 || dg.Passed {
		t.Errorf("diagnostic %+v; want level 2 escalated from 1 and failed", dg)
	}
	if st := nodeStatus(t, cli, id); st != "quarantined" {
		t.Errorf("node %s is %q, want quarantined", id, st)
	}
}

type nodeList struct {
	Nodes []struct{ ID, Hostname, Status string }
}

func listNodes(t *testing.T, cli func(...string) (string, error)) nodeList {
	t.Helper()
	var nodes nodeList
	if got, err := cli("node", "list", "-o", "json"); err != nil || json.Unmarshal([]byte(got), &nodes) != nil {
		t.Fatalf("node list: %v\n%s", err, got)
	}
	return nodes
}

func nodeStatus(t *testing.T, cli func(...string) (string, error), id string) string {
	t.Helper()
	for _, n := range listNodes(t, cli).Nodes {
		if n.ID == id {
			return n.Status
		}
	}
	return ""
}
