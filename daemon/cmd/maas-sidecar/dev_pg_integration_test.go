//go:build dev && integration

package main_test

import (
	"net"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// With Debian's postgresql installed, dev mode's site listens to a local
// region database: the listener is up, a machine the banner's onboard
// command creates is notified through PostgreSQL, the site's notify
// settings name the least-privileged role, and SIGTERM removes the
// cluster.
func TestDevModeListensToPostgres(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	p := startServe(t, state, nil, "--dev", "--dev-idle", "--log-level", "info")
	dsn, _ := p.waitLog("dev region database started; the dev site listens to it")["dsn"].(string)
	p.waitReady()
	p.waitLog("listening to the region database")
	waitMetricLine(t, p, `maas_sidecar_feed_listener_up{site="dev-site"} 1`)
	n, _ := devSite(t, p, state)["notify"].(map[string]any)
	if n["source"] != "dsn" || n["dsn"] != dsn || !strings.HasPrefix(dsn, "postgres://maas_listen@127.0.0.1:") || strings.Contains(dsn, ":@") {
		t.Fatalf("the dev site's notify = %v, want source dsn and the role's DSN %q (no password)", n, dsn)
	}
	onboard := exec.Command(binary, "onboard", "--site", "dev-site", "--sku", "mi300x.192g.8gpu", "--hostname", "gpu12",
		"--ipmi-ip", "10.10.0.12", "--addr", p.addr, "--state-dir", state)
	onboard.Env = cleanEnv()
	if out, err := onboard.CombinedOutput(); err != nil {
		t.Fatalf("onboard: %v\n%s", err, out)
	}
	waitMetricLine(t, p, `maas_sidecar_feed_notifications_total{channel="machine_create",site="dev-site"} 1`)
	if code, _ := p.terminate(); code != 0 {
		t.Fatalf("exit %d; log:\n%s", code, p.log())
	}
	clusterGone(t, dsn)
}

// A start that fails after the region database came up (the agent port
// is taken) removes the cluster too.
func TestDevModeFailedStartRemovesPostgres(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	p := startServe(t, filepath.Join(t.TempDir(), "state"), nil, "--dev", "--dev-idle", "--log-level", "info",
		"--agent-listen", busy.Addr().String())
	dsn, _ := p.waitLog("dev region database started; the dev site listens to it")["dsn"].(string)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not exit with its agent port taken; log:\n%s", p.log())
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(p.log(), "agent.listen") {
		t.Fatalf("exit %d, want 1 naming agent.listen; log:\n%s", code, p.log())
	}
	clusterGone(t, dsn)
}

// waitMetricLine polls p's /metrics until it has line, for up to 30 s.
func waitMetricLine(t *testing.T, p *proc, line string) {
	t.Helper()
	var body string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, body, _ = get(p.addr, "/metrics"); strings.Contains(body, line) {
			return
		}
	}
	t.Fatalf("/metrics never showed %q; listener lines:\n%s\nlog:\n%s", line, grepLines(body, "listener|notifications"), p.log())
}

func grepLines(s, words string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		for _, w := range strings.Split(words, "|") {
			if strings.Contains(l, w) && !strings.HasPrefix(l, "#") {
				out = append(out, l)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// clusterGone: nothing listens any more on the port of dsn.
func clusterGone(t *testing.T, dsn string) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || u.Port() == "" {
		t.Fatalf("dsn %q: %v", dsn, err)
	}
	if c, err := net.DialTimeout("tcp", u.Host, time.Second); err == nil {
		c.Close()
		t.Fatalf("PostgreSQL still listens at %s after the daemon stopped", u.Host)
	}
}
