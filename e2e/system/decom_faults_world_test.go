//go:build e2e

package system

import (
	"bufio"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// dfDecom is a decommission as `decommission get -o json` shows it.
type dfDecom struct {
	Decommission struct {
		ID, Hostname, Mode, Status string
		NodeID                     string `json:"node_id"`
		Stage                      string `json:"current_stage"`
		FailureClass               string `json:"failure_class"`
		Recommended                string `json:"recommended_action"`
		Error                      string `json:"error_message"`
	}
	Events []struct {
		Stage, Status, Message string
		Attempt                int
	}
}

// dfOnboardActive onboards hosts as one batch, waits until every run
// completed and returns each host's node id.
func (w *world) dfOnboardActive(hosts ...string) map[string]string {
	w.t.Helper()
	batch, _ := w.onboard(hosts...)
	if watch := w.daemon.cli("", "onboarding", "watch", "--batch", batch); watch.code != 0 {
		w.t.Fatalf("onboarding watch --batch: %s", watch)
	}
	ids := map[string]string{}
	for h, r := range w.runs(batch) {
		if r.Status != "completed" || r.NodeID == "" {
			w.t.Fatalf("%s: onboarding %s, node %q", h, r.Status, r.NodeID)
		}
		ids[h] = r.NodeID
	}
	return ids
}

// dfDecommission starts a decommission of node through the CLI and
// returns its id; flags are extra `node decommission` flags.
func (w *world) dfDecommission(node, mode string, flags ...string) string {
	w.t.Helper()
	var out struct {
		ID string `json:"decommission_id"`
	}
	args := append([]string{"node", "decommission", node, "--mode", mode, "--reason", "e2e: " + mode}, flags...)
	w.daemon.json(&out, args...)
	if out.ID == "" {
		w.t.Fatalf("node decommission %s returned no id", node)
	}
	return out.ID
}

// dfGet reads one decommission with its events.
func (w *world) dfGet(id string) dfDecom {
	w.t.Helper()
	var d dfDecom
	w.daemon.json(&d, "decommission", "get", id)
	return d
}

// dfSucceeded reports whether stage ever succeeded in d's events.
func (d dfDecom) dfSucceeded(stage string) bool {
	for _, e := range d.Events {
		if e.Stage == stage && e.Status == "succeeded" {
			return true
		}
	}
	return false
}

// dfNodeStatus is the status of node id in `node list`, "" when absent.
func (w *world) dfNodeStatus(id string) string {
	w.t.Helper()
	var out struct {
		Nodes []struct{ ID, Status string }
	}
	w.daemon.json(&out, "node", "list", "--site", w.site)
	for _, n := range out.Nodes {
		if n.ID == id {
			return n.Status
		}
	}
	return ""
}

// dfOpRequests counts, per machine system id, the POST requests of op
// among the request log's entries from index since on, whatever MAAS
// answered (a refused second release is still a second release). A
// release that erases is op "release" too.
func (s *sim) dfOpRequests(op string, since int) map[string]int {
	out := map[string]int{}
	for i, r := range s.requests() {
		if sid, ok := machinePath(r.Path); ok && i >= since && r.Method == http.MethodPost && r.Op == op {
			out[sid]++
		}
	}
	return out
}

// dfKillAgent SIGKILLs the agent process the simulator booted last for
// host: the host stays powered and deployed, its agent is gone.
func (s *sim) dfKillAgent(host string) {
	s.t.Helper()
	pid := 0
	sc := bufio.NewScanner(strings.NewReader(s.proc.out.String()))
	for sc.Scan() {
		if l := sc.Text(); strings.Contains(l, "msg=booted") && strings.Contains(l, "hostname="+host+" ") {
			for _, f := range strings.Fields(l) {
				if v, ok := strings.CutPrefix(f, "pid="); ok {
					pid, _ = strconv.Atoi(v)
				}
			}
		}
	}
	// Only a process running the agent binary on this host's root.
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if pid == 0 || err != nil || !strings.Contains(string(cmdline), bins.agent) ||
		!strings.Contains(string(cmdline), s.bootDir+"/"+host) {
		s.t.Fatalf("no running agent of %s found (pid %d): %v %q", host, pid, err, cmdline)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		s.t.Fatalf("kill agent of %s: %v", host, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			s.t.Fatalf("agent of %s (pid %d) still there 10s after SIGKILL", host, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dfWatch follows a decommission to its end with `decommission watch` and
// fails the test, with the run's events and tasks, unless the watch
// exits with code.
func (w *world) dfWatch(id string, code int) result {
	w.t.Helper()
	r := w.daemon.cli("", "decommission", "watch", id)
	if r.code != code {
		w.t.Fatalf("decommission watch %s: want exit %d; %s\n%s", id, code, r, w.daemon.cli("", "decommission", "get", id).stdout)
	}
	return r
}
