package cli_test

import (
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
)

// site create and update set a site's preferred daemon, site get shows
// it, an empty value clears it, and a bad name is refused naming the field.
func TestSitePreferredDaemon(t *testing.T) {
	d := startDaemon(t)
	id := d.mustJSON("site", "create", "--name", "dc2", "--region", "dc2", "--url", "http://10.0.0.2:5240/MAAS",
		"--pxe-iface", "ens19", "--vlan", "46", "--node-pxe-iface", "eno8303", "--preferred-daemon", "region-1")["id"].(string)
	if got := d.mustJSON("site", "get", id)["preferred_daemon"]; got != "region-1" {
		t.Fatalf("created: preferred_daemon %v", got)
	}
	tests := []struct {
		name, value, shown string
		code               int
	}{
		{"set", "region-2.dc2", "region-2.dc2", cli.ExitOK},
		{"bad name", "region 2", "region-2.dc2", cli.ExitInvalid},
		{"cleared", "", "-", cli.ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := d.cli("", "site", "update", id, "--preferred-daemon", tt.value)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d: %s", r.code, tt.code, r.stderr)
			}
			if tt.code != cli.ExitOK && !strings.Contains(r.stderr, "preferred_daemon") {
				t.Errorf("the refusal does not name the field: %s", r.stderr)
			}
			g := d.cli("", "site", "get", id)
			lines := strings.Split(strings.TrimSpace(g.stdout), "\n")
			if len(lines) != 2 || !strings.HasSuffix(lines[0], "PREFERRED_DAEMON") || !strings.HasSuffix(lines[1], " "+tt.shown) {
				t.Fatalf("site get shows:\n%s", g.stdout)
			}
		})
	}
}

// A new site initialises /shareN by default (seed 001 §9): site create
// says so on stderr, with the way to turn it off; a policy without it
// creates no warning on the next site get.
func TestSiteCreateWarnsThatShareDisksAreWiped(t *testing.T) {
	d := startDaemon(t)
	r := d.cli("", "site", "create", "--name", "dc3", "--region", "dc3", "--url", "http://10.0.0.3:5240/MAAS",
		"--pxe-iface", "ens19", "--vlan", "46", "--node-pxe-iface", "eno8303")
	if r.code != cli.ExitOK {
		t.Fatalf("site create: exit %d: %s", r.code, r.stderr)
	}
	id := strings.Fields(strings.Split(strings.TrimSpace(r.stdout), "\n")[1])[0]
	for _, want := range []string{"warning: site " + id, "init_share_disks is on", "FORMATS", "policy set " + id + " init_share_disks=false"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("site create stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if p := d.mustJSON("policy", "get", id); p["init_share_disks"] != true {
		t.Errorf("a new site's init_share_disks = %v, want true", p["init_share_disks"])
	}
}
