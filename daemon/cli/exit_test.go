package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
)

// TestJSONOutput runs every read verb and a few writes with -o json and
// parses what they print.
func TestJSONOutput(t *testing.T) {
	d := startDaemon(t)
	run := d.mustJSON("onboard", "--site", d.site, "--sku", "mi300x.192g.8gpu", "--hostname", "n1", "--ipmi-ip", "10.0.0.1")["onboarding_id"].(string)
	tok := d.mustJSON("token", "create", "--name", "ci", "--role", "viewer")["id"].(string)
	ov := d.mustJSON("override", "create", d.site, "--type", "hostname", "--value", "n1")["id"].(string)
	for _, args := range [][]string{
		{"site", "list"}, {"site", "list", "--all"}, {"site", "get", d.site}, {"site", "disable", d.site, "--reason", "maintenance"},
		{"site", "enable", d.site}, {"site", "update", d.site, "--dns", "10.0.0.53"},
		{"policy", "get", d.site}, {"policy", "set", d.site, "batch_max_parallel=4", "hardware_sync_interval=30m"},
		{"override", "list", d.site}, {"override", "delete", d.site, ov}, {"roce", "list", d.site},
		{"onboarding", "get", run}, {"onboarding", "list", "--site", d.site, "--status", "pending,running,completed"},
		{"node", "list"}, {"token", "list"}, {"token", "revoke", tok}, {"audit", "--limit", "5"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			d.mustJSON(args...)
		})
	}
	if r := d.cli("", "site", "list"); r.code != 0 || !strings.Contains(r.stdout, "NAME") || json.Valid([]byte(r.stdout)) {
		t.Errorf("default output is not a table: %s", r.stdout)
	}
}

func TestExitCodes(t *testing.T) {
	d := startDaemon(t)
	tests := []struct {
		name  string
		env   map[string]string
		args  []string
		want  int
		inErr string
	}{
		{"not found", nil, []string{"site", "get", "nope"}, cli.ExitNotFound, "404"},
		{"conflict", nil, []string{"site", "create", "--name", "dc1", "--region", "r", "--url", "http://m/MAAS", "--pxe-iface", "e", "--vlan", "1", "--node-pxe-iface", "e"}, cli.ExitConflict, "409"},
		{"invalid", nil, []string{"site", "create", "--name", "x"}, cli.ExitInvalid, "field"},
		{"bad token", map[string]string{"MAAS_SIDECAR_TOKEN": "mss_wrong"}, []string{"site", "list"}, cli.ExitAuth, "401"},
		{"usage: unknown verb", nil, []string{"site", "frobnicate"}, cli.ExitUsage, "unknown command"},
		{"usage: missing argument", nil, []string{"site", "get"}, cli.ExitUsage, "want 1 argument"},
		{"usage: bad flag", nil, []string{"site", "list", "--nope"}, cli.ExitUsage, "flag provided but not defined"},
		{"usage: bad output", nil, []string{"site", "list", "-o", "yaml"}, cli.ExitUsage, "-o must be"},
		{"unreachable", map[string]string{"MAAS_SIDECAR_ADDR": "127.0.0.1:1"}, []string{"site", "list"}, cli.ExitFail, "connect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := d.cliEnv(tt.env, tt.args...)
			if r.code != tt.want || !strings.Contains(r.stderr, tt.inErr) {
				t.Errorf("exit %d stderr %q; want %d and %q", r.code, r.stderr, tt.want, tt.inErr)
			}
		})
	}
}

// The token comes from --token, then MAAS_SIDECAR_TOKEN, then the state
// dir's admin.token; without any the command is a usage error.
func TestTokenSources(t *testing.T) {
	d := startDaemon(t)
	viewer := d.mustJSON("token", "create", "--name", "v", "--role", "viewer")["token"].(string)
	tf := d.file("tok", viewer+"\n")
	for name, tt := range map[string]struct {
		env  map[string]string
		args []string
		want int
	}{
		"state dir admin token": {nil, []string{"token", "list"}, cli.ExitOK},
		"env beats state dir":   {map[string]string{"MAAS_SIDECAR_TOKEN": viewer}, []string{"token", "list"}, cli.ExitAuth},
		"flag beats env":        {map[string]string{"MAAS_SIDECAR_TOKEN": viewer}, []string{"site", "list", "--token", "mss_x"}, cli.ExitAuth},
		"token file":            {nil, []string{"token", "list", "--token-file", tf}, cli.ExitAuth},
		"no token anywhere":     {nil, []string{"site", "list", "--state-dir", t.TempDir()}, cli.ExitUsage},
		"viewer reads":          {map[string]string{"MAAS_SIDECAR_TOKEN": viewer}, []string{"site", "list"}, cli.ExitOK},
	} {
		t.Run(name, func(t *testing.T) {
			if r := d.cliEnv(tt.env, tt.args...); r.code != tt.want {
				t.Errorf("exit %d, want %d: %s", r.code, tt.want, r.stderr)
			}
		})
	}
}
