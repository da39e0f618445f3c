package pgnotify

import (
	"context"
	"os"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

const opConfig = "pgnotify: configuration"

// ConnConfig resolves the source now: the DSN and the password read from
// Password, or else the first readable regiond.conf of RegiondConf. The
// config comes from the source alone: no PG* environment variable, no
// ~/.pgpass, ~/.pg_service.conf or ~/.postgresql file is read (see
// connString). Errors are invalid: a bad DSN, no password source, an
// error of Password (wrapped), no readable or a malformed regiond.conf.
func (s Source) ConnConfig(ctx context.Context) (*pgx.ConnConfig, error) {
	t, pw, err := s.resolve(ctx)
	if err != nil {
		return nil, err
	}
	return t.connConfig(pw)
}

func (s Source) resolve(ctx context.Context) (target, string, error) {
	switch {
	case s.DSN != "":
		t, err := parseDSN(s.DSN)
		if err != nil {
			return target{}, "", err
		}
		if s.Password == nil {
			return target{}, "", lifecycle.Errorf(lifecycle.CodeInvalid, opConfig, "the DSN has no password source")
		}
		pw, err := s.Password(ctx)
		if err != nil {
			return target{}, "", &lifecycle.Error{Code: lifecycle.CodeInvalid, Op: opConfig,
				Msg: "the database password cannot be read", Err: err}
		}
		if pw == "" {
			return target{}, "", lifecycle.Errorf(lifecycle.CodeInvalid, opConfig, "the database password is empty")
		}
		return t, pw, nil
	case len(s.RegiondConf) > 0:
		return readRegiond(s.RegiondConf)
	}
	return target{}, "", lifecycle.Errorf(lifecycle.CodeInvalid, opConfig, "neither a DSN nor a regiond.conf path is configured")
}

// connConfig builds the pgx config. pgx can only build one by parsing a
// connection string, and it fills every key the string leaves out from
// the PG* environment and the home directory; so the string names every
// such key, empty where the default is wanted, and the password and the
// runtime parameters are set afterwards. PGSERVICE alone cannot be
// overridden that way: it is refused.
func (t target) connConfig(password string) (*pgx.ConnConfig, error) {
	if v := os.Getenv("PGSERVICE"); v != "" {
		return nil, lifecycle.Errorf(lifecycle.CodeInvalid, opConfig,
			"PGSERVICE is set in the environment: unset it, the listener takes its settings from the DSN or regiond.conf alone")
	}
	cc, err := pgx.ParseConfig(t.connString())
	if err != nil {
		return nil, lifecycle.Wrap(lifecycle.CodeInvalid, opConfig, err)
	}
	cc.Password = password
	cc.RuntimeParams = map[string]string{"application_name": t.appName}
	return cc, nil
}

// connString is the keyword/value form of t with every key pgx would
// otherwise take from the environment or the home directory. The password
// is never part of it.
func (t target) connString() string {
	kv := [][2]string{
		{"host", t.host}, {"port", strconv.Itoa(t.port)}, {"dbname", t.database}, {"user", t.user},
		{"passfile", ""}, {"sslmode", t.sslmode}, {"sslrootcert", t.sslrootcert},
		{"sslcert", t.sslcert}, {"sslkey", t.sslkey}, {"sslpassword", ""}, {"sslcertmode", "allow"},
		{"sslsni", ""}, {"sslnegotiation", ""}, {"target_session_attrs", "any"},
		{"min_protocol_version", ""}, {"max_protocol_version", ""}, {"channel_binding", ""},
		{"require_auth", t.requireAuth()}, {"connect_timeout", strconv.Itoa(int(t.connectTimeout.Seconds()))},
	}
	parts := make([]string, len(kv))
	for i, p := range kv {
		parts[i] = p[0] + "=" + quote(p[1])
	}
	return strings.Join(parts, " ")
}

// requireAuth refuses cleartext-password authentication unless the
// server's certificate is verified (sslmode verify-ca or verify-full):
// otherwise a server that is not the region database, or a machine in
// the middle, could ask for the password in clear and receive it.
func (t target) requireAuth() string {
	if t.sslmode == "verify-full" || t.sslmode == "verify-ca" {
		return ""
	}
	return "!password"
}

// quote is a keyword/value string literal.
func quote(v string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}
