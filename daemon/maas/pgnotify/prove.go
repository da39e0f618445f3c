package pgnotify

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Prove connects once to the database of dsn with password, as the
// listener would (the same settings, cleartext authentication refused
// without a verified server certificate), and closes the connection.
// Errors are those of a failed connect (invalid for a bad DSN,
// unauthorized for a refused password, unavailable for an unreachable
// server); the password never appears in them.
func Prove(ctx context.Context, dsn, password string) error {
	src := Source{DSN: dsn, Password: func(context.Context) (string, error) { return password, nil }}
	t, pw, err := src.resolve(ctx)
	if err != nil {
		return err
	}
	cc, err := t.connConfig(pw)
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, cc)
	if err != nil {
		return connectError(t, err)
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_ = conn.Close(cctx)
	return nil
}
