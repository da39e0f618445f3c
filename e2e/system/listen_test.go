//go:build e2e

package system

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/internal/pgtest"
)

const listenPassword = "listen-secret-0123"

// regionWorld is a world whose simulator mirrors its machines into a real
// PostgreSQL (the region database, with MAAS's triggers). gpu-001 is
// onboarded and active; then the daemon is restarted to poll the events
// cursor once a minute (the most poll_interval allows), so that a change
// found within seconds came by push. It returns the DSN of maas_listen, a role that may only
// connect and LISTEN.
func regionWorld(t *testing.T) (*world, string) {
	t.Helper()
	vaultBin := requireBinaries(t)
	pg := pgtest.Start(t)
	pg.Exec(t, "", "CREATE DATABASE maasdb", "REVOKE CONNECT ON DATABASE maasdb FROM PUBLIC",
		"CREATE ROLE maas_listen LOGIN PASSWORD '"+listenPassword+"'", "GRANT CONNECT ON DATABASE maasdb TO maas_listen")
	w := &world{t: t, sim: startSim(t, simOptions{machines: 1, speed: 600, postgres: pg.SuperDSN("maasdb")}),
		daemon: newDaemon(t, startVault(t, vaultBin))}
	w.daemon.start()
	w.createSite()
	batch, _ := w.onboard("gpu-001")
	if r := w.daemon.cli("", "onboarding", "watch", "--batch", batch); r.code != 0 {
		t.Fatalf("onboarding watch: %s", r)
	}
	w.daemon.proc.stop(15 * time.Second)
	w.daemon.setConfig("poll_interval: 100ms", "poll_interval: 1m")
	w.daemon.start()
	return w, pg.DSN("maas_listen", "", "maasdb")
}

// setConfig replaces old with new in the daemon's config file.
func (d *daemon) setConfig(old, new string) {
	d.t.Helper()
	b, err := os.ReadFile(d.config)
	if err != nil || !strings.Contains(string(b), old) {
		d.t.Fatalf("config lacks %q (%v)", old, err)
	}
	if err := os.WriteFile(d.config, []byte(strings.Replace(string(b), old, new, 1)), 0o600); err != nil {
		d.t.Fatal(err)
	}
}

// releaseAndWait releases gpu-001 out of band and waits for its node's
// quarantine, returning how long it took.
func (w *world) releaseAndWait(within time.Duration) time.Duration {
	w.t.Helper()
	start := time.Now()
	w.sim.control("machines/"+w.sim.machines["gpu-001"].systemID+"/release", nil)
	for w.nodes()["gpu-001"] != "quarantined" {
		if time.Since(start) > within {
			w.t.Fatalf("gpu-001 is %q %s after an out-of-band release, want quarantined", w.nodes()["gpu-001"], within)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return time.Since(start)
}

// The daemon binary listens to the region database of a site whose
// notify settings name it (set through the CLI with the password, which
// the daemon proves against the database before storing either). A DSN
// change without the password, or with a wrong one, is refused naming
// notify_db_password and changes nothing; the daemon stays ready. Then
// the right one: an out-of-band release quarantines the node within
// seconds while the cursor polls once a minute.
func TestListenOnRealBinaries(t *testing.T) {
	w, dsn := regionWorld(t)
	d := w.daemon
	for name, args := range map[string][]string{
		"no password":    {"site", "update", w.site, "--notify-dsn", dsn},
		"wrong password": {"site", "update", w.site, "--notify-dsn", dsn, "--notify-db-password-file", file(t, "notify-db-wrong", "not-"+listenPassword)},
	} {
		if r := d.cli("", args...); r.code == 0 || !strings.Contains(r.stderr, "notify_db_password") {
			t.Fatalf("%s: %s; want refused naming notify_db_password", name, r)
		}
	}
	if r := d.cli("", "site", "get", w.site); strings.Contains(r.stdout, "maas_listen") {
		t.Fatalf("a refused DSN was stored: %s", r.stdout)
	}
	resp, err := http.Get(d.url("/readyz"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/readyz %s after refused notify changes, want 200", resp.Status)
	}
	d.ok("", "site", "update", w.site, "--notify-dsn", dsn,
		"--notify-db-password-file", file(t, "notify-db", listenPassword), "--reason", "e2e: LISTEN")
	site := map[string]string{"site": w.site}
	caughtUp := map[string]string{"site": w.site, "source": "listen"}
	deadline := time.Now().Add(30 * time.Second)
	for fams := scrape(t, d); sample(fams, "maas_sidecar_feed_listener_up", site) != 1 ||
		sample(fams, "maas_sidecar_feed_last_success_timestamp_seconds", caughtUp) == 0; fams = scrape(t, d) {
		if time.Now().After(deadline) {
			t.Fatal("the listener is not up and caught up 30s after the site's notify settings were set")
		}
		time.Sleep(100 * time.Millisecond)
	}
	listen := map[string]string{"source": "listen"}
	before := sample(scrape(t, d), "maas_sidecar_feed_machines_read_total", listen)
	took := w.releaseAndWait(15 * time.Second)
	t.Logf("quarantined %s after the release (LISTEN, real binaries)", took.Round(time.Millisecond))
	if v := sample(scrape(t, d), "maas_sidecar_feed_machines_read_total", listen); v <= before {
		t.Fatalf("machines read through listen %v before the release, %v after: the release did not come through LISTEN", before, v)
	}
}

// The forwarder, for a daemon that is not on the region controller:
// PostgreSQL -> maas-notify-forward (the daemon binary's subcommand, a
// process of its own) -> a signed webhook -> the daemon -> quarantine.
// The site has no notify settings, so the daemon itself listens to nothing.
func TestNotifyForwarderEndToEnd(t *testing.T) {
	w, dsn := regionWorld(t)
	d := w.daemon
	const secret = "hook-secret-0123456789"
	d.ok(apiKey, "site", "credentials", w.site, "--maas-key-file", "-", "--webhook-secret-file", file(t, "hook", secret),
		"--reason", "e2e: forwarder")
	fwd := startProc(t, "maas-notify-forward", nil, bins.daemon, "maas-notify-forward", "--site", w.site,
		"--url", d.url("/api/v1/webhooks/maas"), "--secret-file", file(t, "fwd-secret", secret),
		"--dsn", dsn, "--password-file", file(t, "fwd-password", listenPassword))
	fwd.waitLine(30*time.Second, "listening to the region database")
	took := w.releaseAndWait(15 * time.Second)
	t.Logf("quarantined %s after the release (forwarder, real binaries)", took.Round(time.Millisecond))
	fams := scrape(t, d)
	if v := sample(fams, "maas_sidecar_webhook_received_total", nil); v < 1 {
		t.Fatalf("webhooks received = %v", v)
	}
	if v := sample(fams, "maas_sidecar_feed_machines_read_total", map[string]string{"source": "webhook"}); v < 1 {
		t.Fatalf("machines read through webhooks = %v", v)
	}
	if v := sample(fams, "maas_sidecar_webhook_rejected_total", map[string]string{"reason": "bad_signature"}); v != 0 {
		t.Fatalf("webhooks refused for their signature = %v", v)
	}
	if strings.Contains(fwd.out.String(), listenPassword) || strings.Contains(fwd.out.String(), secret) {
		t.Fatal("the forwarder's output carries a secret")
	}
}

// configText is the daemon's config file.
func (d *daemon) configText() string {
	d.t.Helper()
	b, err := os.ReadFile(d.config)
	if err != nil {
		d.t.Fatal(err)
	}
	return string(b)
}
