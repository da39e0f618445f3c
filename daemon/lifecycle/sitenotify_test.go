package lifecycle

import (
	"strings"
	"testing"
)

func TestSiteNotifyValidate(t *testing.T) {
	const good = "postgres://maas_listen@10.0.0.1:5432/maasdb?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem&connect_timeout=5&application_name=maas-sidecar"
	for _, n := range []SiteNotify{
		{}, {Source: NotifyRegiondConf}, {Source: NotifyDSN, DSN: good},
		{Source: NotifyDSN, DSN: "postgresql://u@localhost/maasdb"},
		{Source: NotifyDSN, DSN: "postgres://u@[::1]:5433/maasdb?sslcert=/c.pem&sslkey=/k.pem"},
	} {
		if err := n.Validate(); err != nil {
			t.Errorf("%+v: %v", n, err)
		}
	}
	const secret = "s3cr3t-LEAK"
	tests := []struct {
		name  string
		n     SiteNotify
		field string
		msg   string
	}{
		{"unknown source", SiteNotify{Source: "listen"}, "notify.source", `"listen" is not one of dsn, regiond_conf`},
		{"dsn missing", SiteNotify{Source: NotifyDSN}, "notify.dsn", "required"},
		{"dsn without source", SiteNotify{DSN: good}, "notify.dsn", "only for notify.source dsn"},
		{"dsn with regiond_conf", SiteNotify{Source: NotifyRegiondConf, DSN: good}, "notify.dsn", "only for notify.source dsn"},
		{"password in userinfo", SiteNotify{Source: NotifyDSN, DSN: "postgres://u:" + secret + "@h/maasdb"}, "notify.dsn", "notify_db_password"},
		{"empty password", SiteNotify{Source: NotifyDSN, DSN: "postgres://u:@h/maasdb"}, "notify.dsn", "must not carry a password"},
		{"password parameter", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb?password=" + secret}, "notify.dsn", "Vault"},
		{"passfile parameter", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb?passfile=/root/.pgpass"}, "notify.dsn", "must not carry a password"},
		{"key-value form", SiteNotify{Source: NotifyDSN, DSN: "host=h user=u password=" + secret + " dbname=maasdb"}, "notify.dsn", "must be a URL"},
		{"http", SiteNotify{Source: NotifyDSN, DSN: "http://u@h/maasdb"}, "notify.dsn", "must be a URL"},
		{"opaque", SiteNotify{Source: NotifyDSN, DSN: "postgres:u@h/maasdb"}, "notify.dsn", "must be a URL"},
		{"no user", SiteNotify{Source: NotifyDSN, DSN: "postgres://h/maasdb"}, "notify.dsn", "names no user"},
		{"no host", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@/maasdb"}, "notify.dsn", "names no host"},
		{"bad port", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h:0/maasdb"}, "notify.dsn", "port"},
		{"no database", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h:5432"}, "notify.dsn", "names no database"},
		{"database path", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/a/b"}, "notify.dsn", "names no database"},
		{"fragment", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb#x"}, "notify.dsn", "fragment"},
		{"unknown parameter", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb?target_session_attrs=any"}, "notify.dsn", `"target_session_attrs" is not one of sslmode`},
		{"repeated parameter", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb?sslmode=require&sslmode=disable"}, "notify.dsn", "more than once"},
		{"bad sslmode", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb?sslmode=always"}, "notify.dsn", "sslmode"},
		{"bad timeout", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb?connect_timeout=5s"}, "notify.dsn", "connect_timeout"},
		{"bad query", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb?sslmode=%zz"}, "notify.dsn", "malformed query"},
		{"space", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb?application_name=a b"}, "notify.dsn", "spaces"},
		{"newline", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/maasdb\n"}, "notify.dsn", "control characters"},
		{"too long", SiteNotify{Source: NotifyDSN, DSN: "postgres://u@h/" + strings.Repeat("d", MaxNotifyDSN)}, "notify.dsn", "longer than 1024"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.n.Validate()
			if ErrorCode(err) != CodeInvalid || ErrorField(err) != tt.field || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Validate() = %v (field %q), want invalid %s with %q", err, ErrorField(err), tt.field, tt.msg)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the error echoes the password: %v", err)
			}
		})
	}
}

func TestSiteValidateChecksNotify(t *testing.T) {
	s := validSite()
	s.Notify = SiteNotify{Source: NotifyDSN, DSN: "postgres://u:pw@h/maasdb"}
	if err := s.Validate(); ErrorField(err) != "notify.dsn" {
		t.Fatalf("Site.Validate() = %v, want notify.dsn", err)
	}
	s.Notify = SiteNotify{Source: NotifyRegiondConf}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

// The password's target is the server and how it is verified: a change
// of either needs the password again; other parameters do not.
func TestSiteNotifyPasswordTarget(t *testing.T) {
	const base = "postgres://maas_listen@db.example:5432/maasdb?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem"
	at := func(dsn string) string { return SiteNotify{Source: NotifyDSN, DSN: dsn}.PasswordTarget() }
	same := []string{base + "&application_name=x&connect_timeout=3", "postgres://maas_listen@DB.example/maasdb?sslrootcert=/etc/ssl/ca.pem&sslmode=verify-full"}
	for _, dsn := range same {
		if at(dsn) != at(base) {
			t.Errorf("%s: target %q, want that of %s", dsn, at(dsn), base)
		}
	}
	moved := []string{
		"postgres://maas_listen@db.example:5432/maasdb?sslmode=disable&sslrootcert=/etc/ssl/ca.pem",
		"postgres://maas_listen@db.example:5432/maasdb?sslmode=verify-full&sslrootcert=/tmp/other.pem",
		"postgres://maas_listen@db.example:5432/maasdb?sslmode=verify-ca&sslrootcert=/etc/ssl/ca.pem",
		"postgres://maas_listen@db2.example:5432/maasdb?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem",
	}
	for _, dsn := range moved {
		if at(dsn) == at(base) {
			t.Errorf("%s: same target as %s, want a new one", dsn, base)
		}
	}
	if got := (SiteNotify{Source: NotifyRegiondConf}).PasswordTarget(); got != "" {
		t.Errorf("regiond_conf target %q, want none", got)
	}
}
