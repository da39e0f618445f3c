//go:build e2e

package system

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The upstream_transient class allows five attempts; an outage is waited
// out past them (runner.DefaultUpstreamPatience).
const transientAttempts = 5

// newOutageWorld is newWorld with the daemon reaching the simulator's API
// through an outage proxy; it returns the proxy and Vault too.
func newOutageWorld(t *testing.T, o simOptions) (*world, *outageProxy, vault) {
	t.Helper()
	vaultBin := requireBinaries(t)
	s := startSim(t, o)
	p := startOutageProxy(t, strings.TrimPrefix(s.base, "http://"))
	v := startVault(t, vaultBin)
	s.url = "http://" + p.addr + "/MAAS/"
	w := &world{t: t, sim: s, daemon: newDaemon(t, v)}
	w.daemon.start()
	w.createSite()
	return w, p, v
}

// attemptView is a run with its stage attempt.
type attemptView struct {
	Hostname, Status string
	Stage            string `json:"current_stage"`
	Attempt          int    `json:"current_attempt"`
	FailureClass     string `json:"failure_class"`
}

// waitPastAttemptBound waits until a run of the batch is retrying a stage
// beyond the class's attempt bound while every run is still running:
// the outage is being waited out, not counted into a failure state.
func (w *world) waitPastAttemptBound(batch, class string, within time.Duration) attemptView {
	w.t.Helper()
	deadline := time.Now().Add(within)
	for {
		var out struct{ Onboardings []attemptView }
		w.daemon.json(&out, "onboarding", "list", "--batch", batch)
		for _, r := range out.Onboardings {
			if r.Status != "running" && r.Status != "pending" {
				w.t.Fatalf("%s is %s (%s at %s attempt %d) during the outage; want it running, waiting the outage out",
					r.Hostname, r.Status, r.FailureClass, r.Stage, r.Attempt)
			}
		}
		for _, r := range out.Onboardings {
			if r.Attempt > transientAttempts && r.FailureClass == class {
				return r
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("no run retried past %d attempts as %s within %v: %+v", transientAttempts, class, within, out.Onboardings)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// converges watches the batch to the end and checks one deploy and no
// release, abort or power call per machine.
func (w *world) converges(batch string, hosts []string, within time.Duration) {
	w.t.Helper()
	start := time.Now()
	watch := w.daemon.cli("", "onboarding", "watch", "--batch", batch)
	if watch.code != 0 || !strings.Contains(watch.stdout, "completed 3") {
		w.t.Fatalf("watch --batch after the outage: %s", watch)
	}
	if d := time.Since(start); d > within {
		w.t.Errorf("the batch took %v to converge after the outage, want within %v (woken, not backed off)", d, within)
	}
	want := map[string]map[string]int{}
	for _, h := range hosts {
		want[h] = map[string]int{"deploy": 1}
	}
	w.checkEffects(want)
}

// TestMaasRefusingConnectionsMidBatchIsWaitedOutThenEveryRunCompletesWithOneDeploy:
// the region API refuses connections (and cuts those open) right after a
// batch is submitted, for longer than five upstream_transient attempts
// take. The runs stay running past the class's attempt bound (no
// failed_retryable), maas_sidecar_maas_up says MAAS is down and the feed
// logs it; once MAAS answers again the runs are woken at once and every
// one completes with exactly one deploy and no release.
func TestMaasRefusingConnectionsMidBatchIsWaitedOutThenEveryRunCompletesWithOneDeploy(t *testing.T) {
	w, proxy, _ := newOutageWorld(t, simOptions{machines: 3, speed: 600})
	hosts := hostnames(1, 2, 3)
	batch, _ := w.onboard(hosts...)
	proxy.down()
	r := w.waitPastAttemptBound(batch, "upstream_transient", 45*time.Second)
	t.Logf("%s at %s attempt %d while MAAS refuses connections", r.Hostname, r.Stage, r.Attempt)
	if v := sample(scrape(t, w.daemon), "maas_sidecar_maas_up", map[string]string{"site": w.site}); v != 0 {
		t.Errorf("maas_sidecar_maas_up = %v during the outage, want 0", v)
	}
	w.daemon.proc.waitLine(time.Second, "feed events failed", "connection refused")
	proxy.up()
	w.daemon.proc.waitLine(10*time.Second, "feed events answer again")
	w.converges(batch, hosts, 20*time.Second)
}

// TestVaultSealedMidBatchIsWaitedOutAndSaidThenEveryRunCompletesAfterUnseal:
// Vault is sealed right after a batch is submitted, for longer than five
// upstream_transient attempts take. The runs stay running past the
// attempt bound, the log says "vault is sealed" and
// maas_sidecar_vault_sealed is 1; after the unseal the gauge is 0, the
// runs are woken at once and every one completes with exactly one deploy
// and no release.
func TestVaultSealedMidBatchIsWaitedOutAndSaidThenEveryRunCompletesAfterUnseal(t *testing.T) {
	w, _, v := newOutageWorld(t, simOptions{machines: 3, speed: 600})
	hosts := hostnames(1, 2, 3)
	batch, _ := w.onboard(hosts...)
	v.sys(t, "seal", nil)
	r := w.waitPastAttemptBound(batch, "upstream_transient", 45*time.Second)
	t.Logf("%s at %s attempt %d while Vault is sealed", r.Hostname, r.Stage, r.Attempt)
	if s := sample(scrape(t, w.daemon), "maas_sidecar_vault_sealed", nil); s != 1 {
		t.Errorf("maas_sidecar_vault_sealed = %v while sealed, want 1", s)
	}
	w.daemon.proc.waitLine(time.Second, "vault is sealed")
	for _, k := range v.unsealKeys {
		v.sys(t, "unseal", map[string]string{"key": k})
	}
	w.daemon.proc.waitLine(10*time.Second, "feed events answer again")
	w.converges(batch, hosts, 20*time.Second)
	if s := sample(scrape(t, w.daemon), "maas_sidecar_vault_sealed", nil); s != 0 {
		t.Errorf("maas_sidecar_vault_sealed = %v after the unseal, want 0", s)
	}
}

// sys posts to Vault's sys/<path> with the root token.
func (v vault) sys(t *testing.T, path string, body any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, v.addr+"/v1/sys/"+path, bytes.NewReader(b))
	req.Header.Set("X-Vault-Token", v.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("vault sys/%s: %v", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("vault sys/%s: %s", path, resp.Status)
	}
}
