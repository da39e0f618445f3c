package admin

import (
	"context"
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// renotify checks and installs the region database password a PATCH
// comes with. A change of where the listener sends the Vault-held
// password (host, port, user, database, sslmode or sslrootcert of
// notify.dsn, or a switch of notify.source to dsn) requires
// notify_db_password in the same body:
// it is proved against the new target with a real connection first (422
// when refused), then written to the site's notify-db Vault path, and
// only then is the site updated. Nothing is sent to the new target
// without it: the stored password never follows a moved DSN.
func (a *API) renotify(r *http.Request, op string, cur lifecycle.Site, q patchRequest) (bool, error) {
	next := cur
	q.apply(&next)
	target := next.Notify.PasswordTarget()
	if q.NotifyDBPassword == nil {
		if target != "" && target != cur.Notify.PasswordTarget() {
			return false, lifecycle.Invalid(op, "notify_db_password", "changing the host, port, user, database, sslmode or sslrootcert of notify.dsn, "+
				"or switching notify.source to dsn, requires notify_db_password in the same request; "+
				"the stored password is never sent to a new target")
		}
		return false, nil
	}
	if target == "" {
		return false, lifecycle.Invalid(op, "notify_db_password", "notify_db_password is only for notify.source dsn")
	}
	creds := credentialsRequest{NotifyDBPass: q.NotifyDBPassword}
	if err := creds.checkNotify(op); err != nil {
		return false, err
	}
	if _, no := a.secrets.(noSecrets); no {
		return false, unwired("Vault")
	}
	if err := a.proveNotify(r.Context(), next.Notify.DSN, *q.NotifyDBPassword); err != nil {
		return false, notifyRefused(op, err)
	}
	path := lifecycle.NotifyDBPasswordVaultPath(cur.ID)
	if err := a.secrets.Write(r.Context(), path, map[string]string{"password": *q.NotifyDBPassword}); err != nil {
		return false, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "writing the notify-db password to Vault failed (%s); the site is unchanged",
			lifecycle.ErrorCode(err))
	}
	return true, nil
}

func (a *API) proveNotify(ctx context.Context, dsn, password string) error {
	ctx, cancel := context.WithTimeout(ctx, a.probeTO)
	defer cancel()
	return a.pgProve.ProveNotify(ctx, dsn, password)
}

// notifyRefused turns a failed proof into a 422 on the field at fault.
// The cause's text is not kept.
func notifyRefused(op string, err error) error {
	switch lifecycle.ErrorCode(err) {
	case lifecycle.CodeUnauthorized, lifecycle.CodeForbidden:
		return lifecycle.Invalid(op, "notify_db_password", "the region database at notify.dsn refused notify_db_password "+
			"(or asked for it in clear without sslmode verify-full or verify-ca); nothing was written")
	case lifecycle.CodeUnavailable:
		return lifecycle.Invalid(op, "notify.dsn", "the region database at notify.dsn is unreachable; nothing was written")
	case lifecycle.CodeNotFound:
		return lifecycle.Invalid(op, "notify.dsn", "the database of notify.dsn does not exist; nothing was written")
	}
	return lifecycle.Invalid(op, "notify.dsn", "the region database at notify.dsn did not accept the connection (%s); nothing was written",
		lifecycle.ErrorCode(err))
}
