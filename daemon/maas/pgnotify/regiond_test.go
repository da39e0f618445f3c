package pgnotify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeFile(t *testing.T, dir, name, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseRegiondConf(t *testing.T) {
	tests := []struct {
		name, conf string
		want       target
		pass       string
	}{
		{"MAAS's defaults", "maas_url: http://10.0.0.1:5240/MAAS\n", newTarget("localhost", 5432, "maasdb", "maas"), ""},
		{"every key", "database_host: 10.0.0.5\ndatabase_port: 6432\ndatabase_name: maas2\ndatabase_user: region\ndatabase_pass: 's3cr''et'\n",
			newTarget("10.0.0.5", 6432, "maas2", "region"), "s3cr'et"},
		{"a port as a string, a numeric password", "database_port: '5433'\ndatabase_pass: 0123\n",
			newTarget("localhost", 5433, "maasdb", "maas"), "0123"},
		{"null keys take the defaults", "database_host:\ndatabase_pass: ~\n", newTarget("localhost", 5432, "maasdb", "maas"), ""},
		{"a socket directory", "database_host: /var/run/postgresql\n", newTarget("/var/run/postgresql", 5432, "maasdb", "maas"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "regiond.conf", tt.conf, 0o600)
			got, pass, err := readRegiond([]string{p})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(target{})); diff != "" || pass != tt.pass {
				t.Errorf("target (-want +got):\n%s\npassword %q, want %q", diff, pass, tt.pass)
			}
		})
	}
}

// A bad file is a config error naming the file and the key, and never
// quoting the password.
func TestParseRegiondConfRefuses(t *testing.T) {
	tests := []struct{ name, conf, want string }{
		{"not YAML", "database_pass: hunter2\n  : [\n", "is not valid YAML: the parser stopped at line"},
		{"not a map", "- hunter2\n", "is not valid YAML"},
		{"a port out of range", "database_port: 99999\ndatabase_pass: hunter2\n", "database_port is not a port number"},
		{"a port not a number", "database_port: hunter2\n", "database_port is not a port number"},
		{"a list as the user", "database_user: [hunter2]\n", "database_user is not a string"},
		{"a map as the password", "database_pass: {a: hunter2}\n", "database_pass is not a string"},
		{"an empty host", "database_host: ''\n", "database_host is empty"},
		{"an empty database", "database_name: ''\n", "database_name is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "regiond.conf", tt.conf, 0o600)
			_, _, err := readRegiond([]string{p})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("err = %v, want one naming %s and containing %q", err, p, tt.want)
			}
			if Reason(err) != ReasonConfig || strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("err = %v (reason %s): want config, without the password", err, Reason(err))
			}
		})
	}
}

// The first readable file wins: a missing one is skipped; an unreadable
// one is named when no later file can be read.
func TestRegiondConfPathOrder(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "deb", "regiond.conf")
	snap := writeFile(t, dir, "snap.conf", "database_host: snaphost\n", 0o600)
	deb := writeFile(t, dir, "deb.conf", "database_host: debhost\n", 0o600)
	got, _, err := readRegiond([]string{missing, snap, deb})
	if err != nil || got.host != "snaphost" {
		t.Fatalf("host %q, err %v: want the snap file after the missing deb file", got.host, err)
	}
	_, _, err = readRegiond([]string{missing, filepath.Join(dir, "also-missing")})
	if err == nil || !strings.Contains(err.Error(), "no regiond.conf: "+missing+" nor ") || Reason(err) != ReasonConfig {
		t.Fatalf("err = %v, want no regiond.conf naming both paths", err)
	}
	_, _, err = readRegiond([]string{dir, missing}) // a directory cannot be read as a file
	if err == nil || !strings.Contains(err.Error(), "read "+dir+": ") || Reason(err) != ReasonConfig {
		t.Fatalf("err = %v, want the unreadable path named", err)
	}
}
