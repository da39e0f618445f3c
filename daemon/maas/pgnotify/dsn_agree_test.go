package pgnotify

import (
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The admin API (lifecycle.SiteNotify.Validate) and the listener
// (ValidateDSN) give the same answer for every DSN: a site whose DSN the
// API took must never be refused at each connect, and the other way round.
func TestSiteValidationAgreesWithTheListener(t *testing.T) {
	dsns := []string{
		"postgres://maas_listen@10.0.0.1/maasdb",
		"postgresql://l@[::1]:6432/maasdb?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem&sslcert=/c.pem&sslkey=/k.pem&connect_timeout=3&application_name=fwd",
		"postgres://l@db.example/maasdb?sslrootcert=system&sslmode=require",
		"postgres://u@h/db?sslmode=disable&connect_timeout=600",
		"", "mysql://u@h/db", "postgres://u:hunter2@h/db", "postgres://u:@h/db", "postgres://u@h/db?password=hunter2",
		"postgres://h/db", "postgres://u@/db", "postgres://u@h", "postgres://u@h/", "postgres://u@h/a/b",
		"postgres://u@h:0/db", "postgres://u@h:70000/db", "postgres://u@h:x/db", "postgres://u@h/db?sslmode=bogus",
		"postgres://u@h/db?service=x", "postgres://u@h/db?passfile=/x", "postgres://u@h/db?sslmode=require&sslmode=disable",
		"postgres://u@h/db?sslcert=/c.pem", "postgres://u@h/db?sslkey=/k.pem", "postgres://u@h/db?sslrootcert=ca.pem",
		"postgres://u@h/db?sslcert=c.pem&sslkey=/k.pem", "postgres://u@h/db?connect_timeout=0",
		"postgres://u@h/db?connect_timeout=601", "postgres://u@h/db?connect_timeout=-1", "postgres://u@h/db?application_name=",
		"postgres://u@h/db?application_name=" + strings.Repeat("a", 64), "postgres://u@h/db?application_name=" + strings.Repeat("a", 63), "postgres://u@h/db#x", "postgres://u@h/db?%zz",
	}
	for _, dsn := range dsns {
		site := lifecycle.SiteNotify{Source: lifecycle.NotifyDSN, DSN: dsn}.Validate()
		listener := ValidateDSN(dsn)
		if (site == nil) != (listener == nil) {
			t.Errorf("%q: the site check says %v, the listener %v", dsn, site, listener)
		}
	}
}
