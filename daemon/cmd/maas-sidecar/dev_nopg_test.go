//go:build dev

package main_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// devLogOff starts the LISTEN-off log line of dev mode.
const devLogOff = "the LISTEN feed is off in dev mode: "

// Dev mode without PostgreSQL works as before: with --dev-no-postgres,
// and where the local cluster cannot start (its temporary directory
// cannot be made), one log line says the LISTEN feed is off, the daemon
// gets ready, the dev site has no notify settings and no listener series,
// and it stops cleanly.
func TestDevModeWithoutPostgres(t *testing.T) {
	for _, tt := range []struct {
		name  string
		env   []string
		flags []string
	}{
		{"--dev-no-postgres", nil, []string{"--dev-no-postgres"}},
		{"cluster does not start", []string{"TMPDIR=/nonexistent/tmp"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			state := filepath.Join(t.TempDir(), "state")
			p := startServe(t, state, tt.env, append([]string{"--dev", "--dev-idle", "--log-level", "info"}, tt.flags...)...)
			p.waitReady()
			if line := p.logWithPrefix(devLogOff); line == nil {
				t.Fatalf("no log line %q...; log:\n%s", devLogOff, p.log())
			}
			if _, body, err := get(p.addr, "/metrics"); err != nil || strings.Contains(body, "maas_sidecar_feed_listener_up") {
				t.Errorf("/metrics (err %v) has a listener series", err)
			}
			if n := devSite(t, p, state)["notify"]; n != nil && len(n.(map[string]any)) > 0 {
				t.Errorf("the dev site's notify = %v, want none", n)
			}
			if code, _ := p.terminate(); code != 0 {
				t.Fatalf("exit %d; log:\n%s", code, p.log())
			}
		})
	}
}

// logWithPrefix returns the first log line whose msg starts with prefix.
func (p *proc) logWithPrefix(prefix string) map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.logs {
		if msg, _ := l["msg"].(string); strings.HasPrefix(msg, prefix) {
			return l
		}
	}
	return nil
}

// devSite is the dev site as `maas-sidecar site get` shows it.
func devSite(t *testing.T, p *proc, state string) map[string]any {
	t.Helper()
	cmd := exec.Command(binary, "site", "get", "dev-site", "-o", "json", "--addr", p.addr, "--state-dir", state)
	cmd.Env = cleanEnv()
	b, err := cmd.Output()
	var site map[string]any
	if err != nil || json.Unmarshal(b, &site) != nil {
		t.Fatalf("site get dev-site: %v\n%s", err, b)
	}
	return site
}
