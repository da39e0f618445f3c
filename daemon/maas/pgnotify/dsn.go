package pgnotify

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// DSNParams are the query parameters a DSN may carry.
var DSNParams = []string{"sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name"}

// SSLModes are libpq's sslmode values.
var SSLModes = []string{"disable", "allow", "prefer", "require", "verify-ca", "verify-full"}

const dsnExample = "postgres://USER@HOST:5432/DATABASE?sslmode=verify-full"

// ValidateDSN checks a DSN as the admin API takes it: a postgres:// or
// postgresql:// URL with a user, one host, an optional port, a database,
// no password (it lives in Vault) and only the parameters of DSNParams.
// The error is invalid, with field "dsn", and names the problem; it never
// quotes the DSN (which might carry a password).
func ValidateDSN(dsn string) error {
	_, err := parseDSN(dsn)
	return err
}

func parseDSN(dsn string) (target, error) {
	u, err := url.Parse(dsn)
	if err != nil || u.Opaque != "" {
		return target{}, badDSN("not a URL such as %s", dsnExample)
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return target{}, badDSN("the scheme must be postgres:// or postgresql://, not %q", u.Scheme)
	}
	if _, has := u.User.Password(); has {
		return target{}, badDSN("the DSN carries a password: leave it out, the password is kept apart (in Vault, or the forwarder's --password-file)")
	}
	t, err := dsnTarget(u)
	if err != nil {
		return target{}, err
	}
	return t, dsnParams(u, &t)
}

func badDSN(format string, args ...any) error {
	return lifecycle.Invalid("pgnotify: DSN", "dsn", format, args...)
}

// dsnTarget reads user, host, port and database.
func dsnTarget(u *url.URL) (target, error) {
	user, host, db := u.User.Username(), u.Hostname(), strings.TrimPrefix(u.Path, "/")
	switch {
	case user == "":
		return target{}, badDSN("no user: %s", dsnExample)
	case host == "":
		return target{}, badDSN("no host: %s", dsnExample)
	case strings.Contains(host, ","):
		return target{}, badDSN("one host only, not %q", host)
	case db == "":
		return target{}, badDSN("no database: %s", dsnExample)
	case strings.Contains(db, "/"):
		return target{}, badDSN("database %q: the path is the database name alone", db)
	case u.Fragment != "":
		return target{}, badDSN("a DSN has no #fragment")
	}
	port := defaultPort
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return target{}, badDSN("port %q is not a number from 1 to 65535", p)
		}
		port = n
	}
	return newTarget(host, port, db, user), nil
}

// dsnParams applies the query parameters, refusing unknown ones.
func dsnParams(u *url.URL, t *target) error {
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return badDSN("the query string is malformed")
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		v := q[k]
		switch {
		case k == "password":
			return badDSN("the DSN carries a password: leave it out, the password is kept apart (in Vault, or the forwarder's --password-file)")
		case !slices.Contains(DSNParams, k):
			return badDSN("parameter %q is not supported (use %s)", k, strings.Join(DSNParams, ", "))
		case len(v) > 1:
			return badDSN("parameter %q is given %d times", k, len(v))
		}
		if err := setParam(t, k, v[0]); err != nil {
			return err
		}
	}
	if (t.sslcert == "") != (t.sslkey == "") {
		return badDSN("sslcert and sslkey go together")
	}
	return nil
}

func setParam(t *target, k, v string) error {
	switch k {
	case "sslmode":
		if !slices.Contains(SSLModes, v) {
			return badDSN("sslmode %q is not one of %s", v, strings.Join(SSLModes, ", "))
		}
		t.sslmode = v
	case "sslrootcert", "sslcert", "sslkey":
		if !strings.HasPrefix(v, "/") && (k != "sslrootcert" || v != "system") {
			return badDSN("%s %q must be an absolute file path", k, v)
		}
		setFile(t, k, v)
	case "connect_timeout":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 600 {
			return badDSN("connect_timeout %q is not a number of seconds from 1 to 600", v)
		}
		t.connectTimeout = time.Duration(n) * time.Second
	case "application_name":
		if v == "" || len(v) > 63 {
			return badDSN("application_name must be 1 to 63 characters")
		}
		t.appName = v
	}
	return nil
}

func setFile(t *target, k, v string) {
	switch k {
	case "sslrootcert":
		t.sslrootcert = v
	case "sslcert":
		t.sslcert = v
	default:
		t.sslkey = v
	}
}
