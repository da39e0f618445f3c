//go:build e2e

package system

import (
	"strings"
	"testing"
	"time"
)

// TestOnboardBatch: a batch onboarded through `onboard --csv` and
// followed with `onboarding watch --batch` ends with every run completed
// (gpu-003 and gpu-006 are arm64 hosts, given the arm64 agent package),
// every node active (its real agent enrolled over mutual TLS and passed
// the onboarding acceptance check, on by default: each run's last stage
// is onboarding_acceptance), one deploy
// per machine, metrics that parse, and a daemon that stops cleanly on
// SIGTERM.
func TestOnboardBatch(t *testing.T) {
	w := newWorld(t, simOptions{machines: 6, noBossEvery: 0, arm64Every: 3, speed: 600})
	hosts := hostnames(1, 2, 3, 4, 5, 6)
	batch, _ := w.onboard(hosts...)
	watch := w.daemon.cli("", "onboarding", "watch", "--batch", batch)
	if watch.code != 0 || !strings.Contains(watch.stdout, "completed 6") {
		t.Fatalf("onboarding watch --batch: %s", watch)
	}
	runs, nodes := w.runs(batch), w.nodes()
	for _, h := range hosts {
		if r := runs[h]; r.Status != "completed" || r.Stage != "onboarding_acceptance" || nodes[h] != "active" {
			t.Errorf("%s: run %s at %s (%s), node %q; want completed at onboarding_acceptance and active", h, r.Status, r.Stage, r.Error, nodes[h])
		}
		if !w.sim.enrolled(h) {
			t.Errorf("%s: its agent process never enrolled", h)
		}
	}
	w.checkNoDuplicates(map[string]int{"deploy": 1})
	checkMetrics(t, w.daemon)
	w.daemon.proc.stop(15 * time.Second)
	w.daemon.proc.waitLine(time.Second, `"maas-sidecar stopped"`)
}

// checkNoDuplicates fails for any machine with a side effect other than
// want (op -> count), e.g. a second deploy or a release nobody asked for.
func (w *world) checkNoDuplicates(want map[string]int) {
	w.t.Helper()
	for sid, ops := range w.sim.effects() {
		for op, n := range ops {
			if n != want[op] {
				w.t.Errorf("machine %s: %d %s call(s), want %d", sid, n, op, want[op])
			}
		}
	}
}

// checkMetrics scrapes /metrics, which must parse, and checks the series
// the shipped alerts read are there.
func checkMetrics(t *testing.T, d *daemon) {
	t.Helper()
	fams := scrape(t, d)
	for _, name := range []string{"maas_sidecar_build_info", "process_start_time_seconds", "maas_sidecar_runs",
		"maas_sidecar_nodes", "maas_sidecar_stage_duration_seconds", "maas_sidecar_feed_last_success_timestamp_seconds"} {
		if _, ok := fams[name]; !ok {
			t.Errorf("/metrics has no %s", name)
		}
	}
	if v := sample(fams, "maas_sidecar_nodes", map[string]string{"state": "active"}); v != 6 {
		t.Errorf("maas_sidecar_nodes{state=active} = %v, want 6", v)
	}
}
