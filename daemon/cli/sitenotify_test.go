package cli_test

import (
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// site create and update set a site's notify settings (a DSN alone
// implies source dsn; either flag replaces the whole), site get shows
// them, a source the daemon does not know is refused naming the value
// before anything is sent, and a DSN with a password is refused by the
// daemon naming the field, without echoing the password.
func TestSiteNotifyFlags(t *testing.T) {
	d := startDaemon(t)
	const dsn = "postgres://maas_listen@10.0.0.2:5432/maasdb?sslmode=verify-full"
	id := d.mustJSON("site", "create", "--name", "dc2", "--region", "dc2", "--url", "http://10.0.0.2:5240/MAAS",
		"--pxe-iface", "ens19", "--vlan", "46", "--node-pxe-iface", "eno8303", "--notify-dsn", dsn)["id"].(string)
	shown := func() (string, string) {
		t.Helper()
		g := d.cli("", "site", "get", id)
		lines := strings.Split(strings.TrimSpace(g.stdout), "\n")
		head, row := strings.Fields(lines[0]), strings.Fields(lines[len(lines)-1])
		if len(lines) != 2 || head[7] != "NOTIFY" || head[8] != "NOTIFY_DSN" || len(row) != len(head) {
			t.Fatalf("site get shows:\n%s", g.stdout)
		}
		return row[7], row[8]
	}
	if src, got := shown(); src != "dsn" || got != dsn {
		t.Fatalf("created: notify %s %s", src, got)
	}
	const pass = "pg-LEAK-31f0"
	pwFile := d.file("pg", pass+"\n")
	tests := []struct {
		name      string
		args      []string
		code      int
		say       string
		src, want string
	}{
		{"regiond_conf", []string{"--notify-source", "regiond_conf"}, cli.ExitOK, "", "regiond_conf", "-"},
		{"unknown source", []string{"--notify-source", "listen"}, cli.ExitUsage, `--notify-source "listen" is not one of`, "regiond_conf", "-"},
		{"dsn with password", []string{"--notify-dsn", "postgres://u:" + pass + "@h/maasdb"}, cli.ExitInvalid, "notify.dsn", "regiond_conf", "-"},
		{"dsn with regiond_conf", []string{"--notify-source", "regiond_conf", "--notify-dsn", dsn}, cli.ExitInvalid, "notify.dsn", "regiond_conf", "-"},
		{"dsn again without the password", []string{"--notify-source", "dsn", "--notify-dsn", dsn}, cli.ExitInvalid, "notify_db_password", "regiond_conf", "-"},
		{"dsn again, the target unreachable", []string{"--notify-dsn", "postgres://maas_listen@127.0.0.1:1/maasdb?sslmode=disable",
			"--notify-db-password-file", pwFile}, cli.ExitInvalid, "notify.dsn", "regiond_conf", "-"},
		{"other flags keep it", []string{"--name", "dc2b"}, cli.ExitOK, "", "regiond_conf", "-"},
		{"off", []string{"--notify-source", ""}, cli.ExitOK, "", "-", "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := d.cli("", append([]string{"site", "update", id}, tt.args...)...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.say) {
				t.Fatalf("exit %d, want %d with %q: %s", r.code, tt.code, tt.say, r.stderr)
			}
			if strings.Contains(r.stdout+r.stderr, pass) {
				t.Errorf("the CLI echoed the password: %s %s", r.stdout, r.stderr)
			}
			if src, got := shown(); src != tt.src || got != tt.want {
				t.Fatalf("notify %s %s, want %s %s", src, got, tt.src, tt.want)
			}
		})
	}
	if r := d.cli("", "site", "create", "--name", "dc3", "--region", "dc3", "--url", "http://10.0.0.3:5240/MAAS",
		"--pxe-iface", "ens19", "--vlan", "46", "--node-pxe-iface", "eno8303", "--notify-source", "pg"); r.code != cli.ExitUsage ||
		!strings.Contains(r.stderr, `"pg"`) {
		t.Errorf("create with an unknown source: exit %d %s", r.code, r.stderr)
	}
}

// --notify-db-password-file reads the file, trimmed, into the site's
// notify-db path; the password is never printed; it counts as a stdin
// secret like the others.
func TestCredentialsNotifyDBPasswordFile(t *testing.T) {
	d := startDaemon(t)
	key := d.file("key", "ck:tk:good-secret\n")
	r := d.cli("", "site", "credentials", d.site, "--maas-key-file", key, "--notify-db-password-file", d.file("pg", "pg-secret-77a2\n"))
	if r.code != cli.ExitOK {
		t.Fatalf("credentials: exit %d %s", r.code, r.stderr)
	}
	path := lifecycle.NotifyDBPasswordVaultPath(d.site)
	if got := d.vault.data[path]["password"]; got != "pg-secret-77a2" {
		t.Errorf("notify-db password in Vault = %q", got)
	}
	if strings.Contains(r.stdout+r.stderr, "pg-secret-77a2") || !strings.Contains(r.stdout, path) {
		t.Errorf("the CLI printed the password, or not its path: %s %s", r.stdout, r.stderr)
	}
	for name, args := range map[string][]string{
		"two from stdin": {"--maas-key-file", "-", "--notify-db-password-file", "-"},
		"empty file":     {"--maas-key-file", key, "--notify-db-password-file", d.file("empty", "\n")},
		"missing file":   {"--maas-key-file", key, "--notify-db-password-file", "/nonexistent/pg"},
	} {
		if r := d.cli("", append([]string{"site", "credentials", d.site}, args...)...); r.code != cli.ExitUsage {
			t.Errorf("%s: exit %d, want 2: %s", name, r.code, r.stderr)
		}
	}
}
