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
// keys `evidence keys` publishes, by `evidence verify` alone. The daemon
// uses Vault, so the site key is Vault's (the published key is its public
// half) and is on no file of the daemon's state directory, its store
// included. After `evidence rotate-key` the running daemon signs the next
// certificate with the new key: the chain verifies with the keys
// published then (new first, retired after) and not with the old key
// alone.
func TestCertificatesOfTurnoversVerifyOffline(t *testing.T) {
	w := newWorld(t, simOptions{machines: 3, speed: 600, gpus: "nvidia:8"})
	hosts := hostnames(1, 2, 3)
	nodes := w.decomActive(hosts...)
	dir := t.TempDir()
	pub := filepath.Join(dir, "site.pub")
	w.daemon.ok("", "evidence", "keys", w.site, "--out", pub)
	vk := w.daemon.vaultSiteKey()
	if got := readFile(t, pub); got != vk.publicPEM(t) {
		t.Fatalf("published key\n%s\nis not the public half of Vault's site key\n%s", got, vk.publicPEM(t))
	}
	for i, mode := range []string{"soft_reset", "reimage", "full_decommission"} {
		w.certifiedTurnover(nodes[hosts[i]], mode, pub, dir)
	}
	w.daemon.noFileHolds(vk)

	w.daemon.ok("", "evidence", "rotate-key", "--reason", "e2e: yearly rotation")
	rotated := w.daemon.vaultSiteKey()
	if rotated.PrivateKey == vk.PrivateKey || !strings.Contains(rotated.Retired, strings.TrimSpace(vk.publicPEM(t))) {
		t.Fatal("after rotate-key Vault holds the same key, or not the old one among the retired keys")
	}
	both := filepath.Join(dir, "rotated.pub")
	w.daemon.ok("", "evidence", "keys", w.site, "--out", both)
	if got := readFile(t, both); got != rotated.publicPEM(t)+rotated.Retired {
		t.Fatalf("keys after rotation\n%s\nwant the new key, then the retired one", got)
	}
	w.certifiedTurnover(nodes[hosts[0]], "soft_reset", both, dir)
	bundle := filepath.Join(dir, "soft_reset.json")
	if r := w.daemon.cli("", "evidence", "verify", bundle, "--key", pub); r.code == 0 || !strings.Contains(r.stderr, "NOT VERIFIED") {
		t.Errorf("a chain signed after the rotation verified with the old key alone: %s", r)
	}
	w.daemon.noFileHolds(rotated)
}

// certifiedTurnover runs a turnover of node in mode to its end and checks
// its certificate: shown by decommission get, and the node's exported
// chain (dir/<mode>.json) verified offline with the keys in pub.
func (w *world) certifiedTurnover(node, mode, pub, dir string) {
	t := w.t
	t.Helper()
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
