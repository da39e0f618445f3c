package pgnotify

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func staticPassword(pw string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return pw, nil }
}

// The config holds what the DSN and the password say, and the defaults
// for what it leaves out (sslmode prefer: TLS, then a plain fallback),
// nothing of the PG* environment or the home directory's files.
func TestConnConfigIgnoresTheEnvironment(t *testing.T) {
	home := t.TempDir()
	pgpass := writeFile(t, home, "pgpass", "*:*:*:*:from-pgpass\n", 0o600)
	for k, v := range map[string]string{"PGHOST": "elsewhere", "PGPORT": "1", "PGDATABASE": "other", "PGUSER": "intruder",
		"PGPASSFILE": pgpass, "PGSSLMODE": "disable", "PGCONNECT_TIMEOUT": "99", "PGAPPNAME": "x", "PGOPTIONS": "-c search_path=evil",
		"PGTZ": "Mars/Base", "PGTARGETSESSIONATTRS": "standby", "PGSSLCERTMODE": "require", "HOME": home} {
		t.Setenv(k, v)
	}
	s := Source{DSN: "postgres://listener@db.example:6432/maasdb", Password: staticPassword("pw-1")}
	cc, err := s.ConnConfig(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{"host": cc.Host, "port": cc.Port, "db": cc.Database, "user": cc.User, "pw": cc.Password,
		"timeout": cc.ConnectTimeout, "params": cc.RuntimeParams, "tls": cc.TLSConfig != nil, "fallbacks": len(cc.Fallbacks),
		"validate": cc.ValidateConnect != nil}
	want := map[string]any{"host": "db.example", "port": uint16(6432), "db": "maasdb", "user": "listener", "pw": "pw-1",
		"timeout": 10 * time.Second, "params": map[string]string{"application_name": "maas-sidecar"}, "tls": true, "fallbacks": 1,
		"validate": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	t.Setenv("PGSERVICE", "svc")
	if _, err := s.ConnConfig(context.Background()); err == nil || !strings.Contains(err.Error(), "PGSERVICE") || Reason(err) != ReasonConfig {
		t.Errorf("with PGSERVICE set: err = %v, want a config error naming PGSERVICE", err)
	}
}

// regiond.conf's password and an empty one: no ~/.pgpass fills the gap.
func TestConnConfigFromRegiondConf(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PGPASSFILE", writeFile(t, dir, "pgpass", "*:*:*:*:from-pgpass\n", 0o600))
	for conf, pw := range map[string]string{"database_pass: region-pw\n": "region-pw", "database_user: maas\n": ""} {
		p := writeFile(t, dir, "regiond.conf", conf, 0o600)
		cc, err := Source{RegiondConf: []string{filepath.Join(dir, "missing"), p}}.ConnConfig(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if cc.Host != "localhost" || cc.Port != 5432 || cc.Database != "maasdb" || cc.User != "maas" || cc.Password != pw {
			t.Errorf("%q: config %s:%d/%s user %s password %q, want MAAS's defaults and %q", conf, cc.Host, cc.Port,
				cc.Database, cc.User, cc.Password, pw)
		}
	}
}

func TestConnConfigRefuses(t *testing.T) {
	vaultErr := lifecycle.Errorf(lifecycle.CodeNotFound, "secrets.Read", "kv/maas-sites/s1/notify-db has no password")
	tests := []struct {
		name string
		src  Source
		want string
	}{
		{"nothing configured", Source{}, "neither a DSN nor a regiond.conf path"},
		{"a DSN without a password source", Source{DSN: "postgres://u@h/db"}, "no password source"},
		{"the password missing in Vault", Source{DSN: "postgres://u@h/db", Password: func(context.Context) (string, error) {
			return "", vaultErr
		}}, "the database password cannot be read: secrets.Read: kv/maas-sites/s1/notify-db has no password"},
		{"an empty password", Source{DSN: "postgres://u@h/db", Password: staticPassword("")}, "password is empty"},
		{"a DSN with a password", Source{DSN: "postgres://u:hunter2@h/db", Password: staticPassword("x")}, "carries a password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.src.ConnConfig(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) || Reason(err) != ReasonConfig {
				t.Fatalf("err = %v (reason %s), want a config error containing %q", err, Reason(err), tt.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("err = %v quotes the password", err)
			}
		})
	}
	_, err := tests[2].src.ConnConfig(context.Background())
	if !errors.Is(err, vaultErr) {
		t.Errorf("the Vault error is not in the chain: %v", err)
	}
}

// The connection string never holds the password and quotes what it
// holds.
func TestConnStringQuotes(t *testing.T) {
	tg := newTarget(`h`, 5432, `it's`, `a\b`)
	s := tg.connString()
	for _, want := range []string{`dbname='it\'s'`, `user='a\\b'`, `passfile=''`, `sslmode='prefer'`, `connect_timeout='10'`} {
		if !strings.Contains(s, want) {
			t.Errorf("%s lacks %s", s, want)
		}
	}
	cc, err := tg.connConfig("pw")
	if err != nil || cc.Database != "it's" || cc.User != `a\b` {
		t.Fatalf("parsed %+v, %v", cc, err)
	}
}
