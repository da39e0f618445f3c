package pgnotify

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestParseDSNAccepts(t *testing.T) {
	tests := []struct {
		dsn  string
		want target
	}{
		{"postgres://maas_listen@10.0.0.1/maasdb", target{host: "10.0.0.1", port: 5432, database: "maasdb", user: "maas_listen",
			sslmode: "prefer", connectTimeout: 10 * time.Second, appName: "maas-sidecar"}},
		{"postgresql://l@[::1]:6432/maasdb?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem&sslcert=/c.pem&sslkey=/k.pem&connect_timeout=3&application_name=fwd",
			target{host: "::1", port: 6432, database: "maasdb", user: "l", sslmode: "verify-full", sslrootcert: "/etc/ssl/ca.pem",
				sslcert: "/c.pem", sslkey: "/k.pem", connectTimeout: 3 * time.Second, appName: "fwd"}},
		{"postgres://l@db.example/maasdb?sslrootcert=system&sslmode=require", target{host: "db.example", port: 5432, database: "maasdb",
			user: "l", sslmode: "require", sslrootcert: "system", connectTimeout: 10 * time.Second, appName: "maas-sidecar"}},
	}
	for _, tt := range tests {
		got, err := parseDSN(tt.dsn)
		if err != nil {
			t.Fatalf("%s: %v", tt.dsn, err)
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(target{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.dsn, diff)
		}
	}
}

// Each refusal is invalid on the field dsn, names the problem, and never
// quotes a password.
func TestValidateDSNRefuses(t *testing.T) {
	tests := []struct{ dsn, want string }{
		{"", "scheme must be postgres"},
		{"mysql://u@h/db", `not "mysql"`},
		{"postgres://u:hunter2@h/db", "carries a password"},
		{"postgres://u:@h/db", "carries a password"},
		{"postgres://u@h/db?password=hunter2", "carries a password"},
		{"postgres://h/db", "no user"},
		{"postgres://u@/db", "no host"},
		{"postgres://u@a,b/db", "one host only"},
		{"postgres://u@h", "no database"},
		{"postgres://u@h/", "no database"},
		{"postgres://u@h/a/b", `database "a/b"`},
		{"postgres://u@h:0/db", `port "0"`},
		{"postgres://u@h:70000/db", `port "70000"`},
		{"postgres://u@h:x/db", "not a URL"},
		{"postgres://u@h/db?sslmode=bogus", `sslmode "bogus"`},
		{"postgres://u@h/db?service=x", `parameter "service" is not supported`},
		{"postgres://u@h/db?passfile=/x", `parameter "passfile" is not supported`},
		{"postgres://u@h/db?sslmode=require&sslmode=disable", `"sslmode" is given 2 times`},
		{"postgres://u@h/db?sslcert=/c.pem", "sslcert and sslkey go together"},
		{"postgres://u@h/db?sslrootcert=ca.pem", "must be an absolute file path"},
		{"postgres://u@h/db?connect_timeout=0", "connect_timeout"},
		{"postgres://u@h/db?application_name=", "application_name"},
		{"postgres://u@h/db#x", "fragment"},
		{"postgres://u@h/db?%zz", "malformed"},
	}
	for _, tt := range tests {
		err := ValidateDSN(tt.dsn)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ValidateDSN(%q) = %v, want an error containing %q", tt.dsn, err, tt.want)
			continue
		}
		if lifecycle.ErrorCode(err) != lifecycle.CodeInvalid || lifecycle.ErrorField(err) != "dsn" || Reason(err) != ReasonConfig {
			t.Errorf("ValidateDSN(%q): code %s field %q reason %s, want invalid dsn config", tt.dsn,
				lifecycle.ErrorCode(err), lifecycle.ErrorField(err), Reason(err))
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ValidateDSN(%q) = %v: the password is in the error", tt.dsn, err)
		}
	}
}
