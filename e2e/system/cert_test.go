//go:build e2e

package system

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A soft reset, a reimage and a full decommission on the real daemon each
// end with a clean certificate: `decommission get` shows it, and the
// node's chain exported with `evidence export` verifies offline with the
// keys `evidence keys` publishes, by `evidence verify` alone.
func TestCertificatesOfTurnoversVerifyOffline(t *testing.T) {
	w := newWorld(t, simOptions{machines: 3, speed: 600, gpus: "nvidia:8"})
	hosts := hostnames(1, 2, 3)
	nodes := w.decomActive(hosts...)
	dir := t.TempDir()
	pub := filepath.Join(dir, "site.pub")
	w.daemon.ok("", "evidence", "keys", w.site, "--out", pub)
	for i, mode := range []string{"soft_reset", "reimage", "full_decommission"} {
		node := nodes[hosts[i]]
		id := w.decomStart(node, mode)
		if r := w.decomWatch(id); r.code != 0 {
			t.Fatalf("%s: decommission watch: %s", mode, r)
		}
		var v struct {
			Certificate json.RawMessage `json:"certificate"`
		}
		w.daemon.json(&v, "decommission", "get", id)
		if len(v.Certificate) == 0 {
			t.Errorf("%s: decommission get shows no certificate", mode)
		}
		bundle := filepath.Join(dir, mode+".json")
		w.daemon.ok("", "evidence", "export", node, "--out", bundle)
		r := w.daemon.cli("", "evidence", "verify", bundle, "--key", pub)
		if r.code != 0 || !strings.Contains(r.stdout, "mode "+mode) || !strings.Contains(r.stdout, "VERIFIED") {
			t.Errorf("%s: evidence verify: %s", mode, r)
		}
	}
}
