//go:build e2e

package system

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// TestHealthXid79QuarantinesDuringTenancy is the passive health watch on
// the real daemon, simulator and agent: with agent.health_interval set in
// the daemon's config (which cloud-init writes into the agent's), an Xid
// 79 (GPU 0 fallen off the bus) injected into a node's simulated host
// during a tenancy turns the node critical and quarantined within two
// intervals, seen in `node health`, `node list`, the console's node
// page, /metrics (the quarantine counted) and the lifecycle events the
// outbox delivers; the critical verdict starts a repair run for the node.
func TestHealthXid79QuarantinesDuringTenancy(t *testing.T) {
	const interval = 3 * time.Second
	sink := newEventSink(t)
	w := newHealthWorld(t, interval, sink)
	host := hostnames(1)[0]
	node := w.decomActive(host)[host]
	w.waitHealth(node, 4*interval, func(h lifecycle.NodeHealth) bool {
		return h.IntervalSeconds == int(interval.Seconds()) && h.Verdict != lifecycle.HealthCritical
	}, "a first report at the daemon's interval, not critical")

	w.sim.residue(host, fakehost.Residue{User: "tenant1", Process: true, GPUMemoryMiB: 2048, Xid: 79})
	start, bound := time.Now(), 2*interval+5*time.Second
	h := w.waitHealth(node, bound, func(h lifecycle.NodeHealth) bool { return h.Verdict == lifecycle.HealthCritical },
		"critical after the Xid 79")
	t.Logf("critical %s after the Xid 79 (interval %s, bound %s)", time.Since(start).Round(100*time.Millisecond), interval, bound)
	if i := slices.IndexFunc(h.Checks, func(c lifecycle.HealthCheck) bool { return c.Name == "xid" }); i < 0 ||
		h.Checks[i].Verdict != lifecycle.HealthCritical || !strings.Contains(h.Checks[i].Reason, "Xid 79") {
		t.Errorf("checks %+v; want the xid check critical naming Xid 79", h.Checks)
	}
	out := w.daemon.ok("", "node", "health", node)
	if !regexp.MustCompile(`(?m)^xid\s+critical\s+reboot\s+Xid 79 on `).MatchString(out) ||
		!regexp.MustCompile(`(?m)^node\s+critical\s.*Xid 79`).MatchString(out) {
		t.Errorf("node health's table does not show the node and its xid check critical with Xid 79:\n%s", out)
	}
	// The repair run the verdict started may already have judged the
	// quarantined node (GPU 0 is gone): repair_required.
	if st := w.nodes()[host]; st != "quarantined" && st != "repair_required" {
		t.Errorf("node %s is %q, want quarantined (or repair_required after its repair run) within %s of the Xid", node, st, bound)
	}
	page := w.daemon.consolePage(t, "/console/nodes/"+node)
	if !strings.Contains(page, `class="state h-critical">critical</span>`) || !strings.Contains(page, "Xid 79") ||
		!regexp.MustCompile(`class="state s-(quarantined|repair_required)"`).MatchString(page) {
		t.Errorf("the console's node page shows no critical verdict naming Xid 79 on a quarantined node:\n%s", page)
	}
	// maas_sidecar_node_health counts active nodes by verdict (its alert
	// is for a critical node left active); the quarantine is counted.
	fams := scrape(t, w.daemon)
	if v := sample(fams, "maas_sidecar_node_health_quarantines_total", nil); v < 1 {
		t.Errorf("maas_sidecar_node_health_quarantines_total = %v, want >= 1", v)
	}
	if v := sample(fams, "maas_sidecar_node_health_reports_total", nil); v < 2 {
		t.Errorf("maas_sidecar_node_health_reports_total = %v, want the reports before and after the Xid", v)
	}
	sink.waitFor(t, node, 30*time.Second, lifecycle.EventHealthChanged, lifecycle.EventNodeQuarantined)
	var repairs answer.RunList
	w.daemon.json(&repairs, "repair", "list", "--node", node)
	if len(repairs.Runs) != 1 || repairs.Runs[0].NodeID != node {
		t.Fatalf("repair list --node %s: %+v; want the repair run the critical verdict started", node, repairs.Runs)
	}
	t.Logf("repair run %s: %s at %s", repairs.Runs[0].ID, repairs.Runs[0].Status, repairs.Runs[0].CurrentStage)
}

// newHealthWorld is newWorld with the agents' health interval and the
// lifecycle events' URL in the daemon's config.
func newHealthWorld(t *testing.T, interval time.Duration, sink *eventSink) *world {
	t.Helper()
	vaultBin := requireBinaries(t)
	w := &world{t: t, sim: startSim(t, simOptions{machines: 1, speed: 600, gpus: "nvidia:8"}),
		daemon: newDaemon(t, startVault(t, vaultBin))}
	w.daemon.setConfig("connectivity:\n", fmt.Sprintf("  health_interval: %s\nevents:\n  url: %s\n  secret_file: %s\nconnectivity:\n",
		interval, sink.url, file(t, "events.key", "e2e-events-key\n")))
	w.daemon.start()
	w.createSite()
	return w
}

// waitHealth polls `node health NODE -o json` until ok holds, failing
// the test after within.
func (w *world) waitHealth(node string, within time.Duration, ok func(lifecycle.NodeHealth) bool, want string) lifecycle.NodeHealth {
	w.t.Helper()
	var v answer.NodeHealthView
	for end := time.Now().Add(within); ; time.Sleep(200 * time.Millisecond) {
		if r := w.daemon.cli("", "node", "health", node, "-o", "json"); r.code == 0 {
			v = answer.NodeHealthView{}
			if err := json.Unmarshal([]byte(r.stdout), &v); err == nil && ok(v.Health) {
				return v.Health
			}
		}
		if time.Now().After(end) {
			w.t.Fatalf("node %s: want %s within %s; last health %+v", node, want, within, v.Health)
		}
	}
}
