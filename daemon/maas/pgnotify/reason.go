package pgnotify

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Reasons, the bounded label of a Down error (Reason).
const (
	ReasonConfig      = "config"      // bad DSN, no password, regiond.conf unreadable or invalid
	ReasonUnreachable = "unreachable" // no answer at host:port (refused, timed out, DNS)
	ReasonAuth        = "auth"        // the server refused the user or the password
	ReasonNoConnect   = "no_connect"  // the role lacks CONNECT on the database
	ReasonNoDatabase  = "no_database" // the database does not exist
	ReasonLost        = "lost"        // an established connection broke or stopped answering
	ReasonOther       = "other"
)

// Reasons lists every Reason, for metrics that register their label
// values at zero.
var Reasons = []string{ReasonConfig, ReasonUnreachable, ReasonAuth, ReasonNoConnect, ReasonNoDatabase, ReasonLost, ReasonOther}

const (
	opConnect = "pgnotify: connect"
	opListen  = "pgnotify: listen"
)

// Reason classifies a Down error for a bounded metric label: config,
// unreachable, auth, no_connect, no_database, lost, other.
func Reason(err error) string {
	var le *lifecycle.Error
	if !errors.As(err, &le) {
		return ReasonOther
	}
	switch {
	case le.Code == lifecycle.CodeInvalid:
		return ReasonConfig
	case le.Op == opListen:
		return ReasonLost
	case le.Code == lifecycle.CodeUnauthorized:
		return ReasonAuth
	case le.Code == lifecycle.CodeForbidden:
		return ReasonNoConnect
	case le.Code == lifecycle.CodeNotFound:
		return ReasonNoDatabase
	case le.Op == opConnect && le.Code == lifecycle.CodeUnavailable:
		return ReasonUnreachable
	}
	return ReasonOther
}

// connectError explains a failed connect to t: the server's refusal by
// its SQLSTATE, else an unreachable server.
func connectError(t target, err error) error {
	var pe *pgconn.PgError
	if strings.Contains(err.Error(), "authentication method requirement") {
		return &lifecycle.Error{Code: lifecycle.CodeUnauthorized, Op: opConnect, Msg: "PostgreSQL at " + t.addr() +
			" asked for the password in clear; it was not sent (use sslmode=verify-full or verify-ca, or scram-sha-256)", Err: err}
	}
	if !errors.As(err, &pe) {
		return &lifecycle.Error{Code: lifecycle.CodeUnavailable, Op: opConnect,
			Msg: "cannot reach PostgreSQL at " + t.addr(), Err: err}
	}
	code, msg := lifecycle.CodeInternal, fmt.Sprintf("PostgreSQL at %s refused the connection", t.addr())
	switch pe.Code {
	case "28P01", "28000":
		code, msg = lifecycle.CodeUnauthorized, fmt.Sprintf("PostgreSQL at %s refused user %q on database %q "+
			"(wrong password, no such role, or no pg_hba.conf line for this host)", t.addr(), t.user, t.database)
	case "42501":
		code, msg = lifecycle.CodeForbidden, fmt.Sprintf("user %q may not connect to database %q at %s "+
			"(GRANT CONNECT ON DATABASE %s TO %s)", t.user, t.database, t.addr(), t.database, t.user)
	case "3D000":
		code, msg = lifecycle.CodeNotFound, fmt.Sprintf("database %q does not exist at %s", t.database, t.addr())
	}
	return &lifecycle.Error{Code: code, Op: opConnect, Msg: msg, Err: pe}
}

// lostError is an established connection that broke.
func lostError(msg string, err error) error {
	return &lifecycle.Error{Code: lifecycle.CodeUnavailable, Op: opListen, Msg: msg, Err: err}
}
