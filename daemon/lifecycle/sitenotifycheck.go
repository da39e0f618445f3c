package lifecycle

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// MaxNotifyDSN is the longest notify.dsn accepted.
const MaxNotifyDSN = 1024

// notifyDSNParams are the query parameters a notify.dsn may carry: TLS
// and connection settings, never credentials.
var notifyDSNParams = map[string]bool{"sslmode": true, "sslrootcert": true, "sslcert": true,
	"sslkey": true, "connect_timeout": true, "application_name": true}

var sslModes = map[string]bool{"disable": true, "allow": true, "prefer": true,
	"require": true, "verify-ca": true, "verify-full": true}

// Validate checks a site's LISTEN settings, naming notify.source or
// notify.dsn. No message quotes the DSN: it could hold a password.
func (n SiteNotify) Validate() error {
	const op = "lifecycle.SiteNotify"
	switch n.Source {
	case NotifyOff, NotifyRegiondConf:
		if n.DSN != "" {
			return Invalid(op, "notify.dsn", "notify.dsn is only for notify.source dsn (source is %q)", n.Source)
		}
		return nil
	case NotifyDSN:
		if n.DSN == "" {
			return Invalid(op, "notify.dsn", "notify.dsn is required with notify.source dsn")
		}
		if msg := checkNotifyDSN(n.DSN); msg != "" {
			return Invalid(op, "notify.dsn", "notify.dsn %s", msg)
		}
		return nil
	}
	return Invalid(op, "notify.source", "notify.source %.32q is not one of dsn, regiond_conf (empty turns the listener off)", n.Source)
}

// checkNotifyDSN returns what is wrong with dsn, or "".
func checkNotifyDSN(dsn string) string {
	if len(dsn) > MaxNotifyDSN {
		return "is longer than " + strconv.Itoa(MaxNotifyDSN) + " characters"
	}
	const example = "must be a URL such as postgres://maas_listen@localhost:5432/maasdb?sslmode=verify-full"
	if !strings.HasPrefix(dsn, "postgres://") && !strings.HasPrefix(dsn, "postgresql://") {
		return example
	}
	if strings.IndexFunc(dsn, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return "must not contain spaces or control characters (percent-encode them)"
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return example
	}
	if _, has := u.User.Password(); has {
		return "must not carry a password: write it to Vault with POST /maas-sites/{id}/credentials, notify_db_password"
	}
	switch {
	case u.User.Username() == "":
		return "names no user (postgres://USER@host/database)"
	case u.Hostname() == "":
		return "names no host (postgres://user@HOST/database)"
	case u.Port() != "" && !validPort(u.Port()):
		return "has a port that is not 1-65535"
	case strings.Trim(u.Path, "/") == "" || strings.Count(u.Path, "/") != 1:
		return "names no database (postgres://user@host/DATABASE)"
	case u.Fragment != "":
		return "must not have a #fragment"
	}
	return checkNotifyParams(u.RawQuery)
}

// checkNotifyParams returns what is wrong with a DSN's query, or "".
func checkNotifyParams(raw string) string {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return "has a malformed query"
	}
	if q.Has("sslcert") != q.Has("sslkey") {
		return "sslcert and sslkey go together"
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if msg := checkNotifyParam(k, q[k]); msg != "" {
			return msg
		}
	}
	return ""
}

// checkNotifyParam returns what is wrong with one query parameter, or "".
// The rules are pgnotify's, which connects with them (its tests hold the
// two to the same answers).
func checkNotifyParam(k string, vs []string) string {
	switch {
	case k == "password" || k == "passfile":
		return "must not carry a password: write it to Vault with POST /maas-sites/{id}/credentials, notify_db_password"
	case !notifyDSNParams[k]:
		return "parameter " + strconv.Quote(truncate(k, 32)) +
			" is not one of sslmode, sslrootcert, sslcert, sslkey, connect_timeout, application_name"
	case len(vs) != 1:
		return "parameter " + k + " is given more than once"
	case k == "sslmode" && !sslModes[vs[0]]:
		return "sslmode is not one of disable, allow, prefer, require, verify-ca, verify-full"
	case k == "connect_timeout" && !inRange(vs[0], 1, 600):
		return "connect_timeout is not a whole number of seconds from 1 to 600"
	case k == "sslrootcert" && vs[0] != "system" && !strings.HasPrefix(vs[0], "/"):
		return "sslrootcert must be an absolute file path, or system"
	case (k == "sslcert" || k == "sslkey") && !strings.HasPrefix(vs[0], "/"):
		return k + " must be an absolute file path"
	case k == "application_name" && (vs[0] == "" || len(vs[0]) > 63):
		return "application_name must be 1 to 63 characters"
	}
	return ""
}

func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}

func inRange(s string, lo, hi int) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= lo && n <= hi
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
