package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/cli"
)

const (
	debConf  = "/etc/maas/regiond.conf"
	snapConf = "/var/snap/maas/current/regiond.conf"
)

// regiond is a regiond.conf as MAAS writes it (keys sorted, YAML).
const regiond = `database_host: localhost
database_name: maasdb
database_pass: s3cret
database_user: maas
maas_url: http://10.20.0.2:5240/MAAS
`

// TestSiteCreateFromLocalMAAS: the site's MAAS URL comes from the local
// region's regiond.conf, the deb's before the snap's.
func TestSiteCreateFromLocalMAAS(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"deb", map[string]string{debConf: regiond}, "http://10.20.0.2:5240/MAAS"},
		{"snap", map[string]string{snapConf: "maas_url: https://region.example:5443/MAAS/\n"}, "https://region.example:5443/MAAS"},
		{"deb before snap", map[string]string{debConf: regiond, snapConf: "maas_url: http://10.99.0.9:5240/MAAS\n"}, "http://10.20.0.2:5240/MAAS"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := startDaemon(t)
			d.root = hostRoot(t, tc.files)
			r := d.cli("", "site", "create", "--name", "dc2", "--region", "dc2", "--from-local-maas",
				"--pxe-iface", "ens19", "--vlan", "47", "--node-pxe-iface", "eno8303", "-o", "json")
			if r.code != cli.ExitOK {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr does not say where the URL came from: %q", r.stderr)
			}
			var created struct{ ID string }
			if err := json.Unmarshal([]byte(r.stdout), &created); err != nil || created.ID == "" {
				t.Fatalf("output is not the created site: %v\n%s", err, r.stdout)
			}
			id := created.ID
			if got := d.mustJSON("site", "get", id)["api_base_url"]; got != tc.want {
				t.Errorf("api_base_url = %v, want %s", got, tc.want)
			}
		})
	}
}

// TestSiteCreateFromLocalMAASErrors: each problem is named with its file,
// and nothing is created.
func TestSiteCreateFromLocalMAASErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		extra []string
		code  int
		want  []string
	}{
		{"no file", nil, nil, cli.ExitFail, []string{debConf, snapConf, "region controller"}},
		{"no maas_url", map[string]string{debConf: "database_host: localhost\n"}, nil, cli.ExitFail, []string{debConf, "no maas_url"}},
		{"not YAML", map[string]string{snapConf: "maas_url: [http://x\n"}, nil, cli.ExitFail, []string{snapConf, "not valid YAML"}},
		{"not a URL", map[string]string{debConf: "maas_url: 10.0.0.1:5240/MAAS\n"}, nil, cli.ExitFail, []string{debConf, "not an http(s) URL"}},
		{"not a string", map[string]string{debConf: "maas_url: {a: b}\n"}, nil, cli.ExitFail, []string{debConf, "not a URL string"}},
		{"with --url", map[string]string{debConf: regiond}, []string{"--url", "http://10.0.0.5:5240/MAAS"}, cli.ExitUsage, []string{"--url and --from-local-maas"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := startDaemon(t)
			d.root = hostRoot(t, tc.files)
			args := append([]string{"site", "create", "--name", "dc3", "--region", "dc3", "--from-local-maas"}, tc.extra...)
			r := d.cli("", args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d: %s", r.code, tc.code, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr %q does not name %q", r.stderr, w)
				}
			}
			if n := len(d.mustJSON("site", "list")["sites"].([]any)); n != 1 {
				t.Errorf("%d sites after a refused create, want the harness's one", n)
			}
		})
	}
}

// hostRoot writes files (host path to content) under a new temp root.
func hostRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
