package pgnotify

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jonboulle/clockwork"
)

// closeTimeout bounds the goodbye to a server that may be gone.
const closeTimeout = time.Second

// session is one connection: connect, LISTEN, then deliver until the
// connection fails or ctx ends. listening runs once LISTEN holds.
func session(ctx context.Context, cfg Config, listening func()) error {
	t, pw, err := cfg.Source.resolve(ctx)
	if err != nil {
		return err
	}
	cc, err := t.connConfig(pw)
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, cc) // bounded by t.connectTimeout
	if err != nil {
		return connectError(t, err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
		defer cancel()
		_ = conn.Close(cctx)
	}()
	if err := listen(ctx, cfg, conn); err != nil {
		return err
	}
	listening()
	cfg.Listening()
	return deliver(ctx, cfg, conn)
}

// listen subscribes conn to every channel, each name quoted.
func listen(ctx context.Context, cfg Config, conn *pgx.Conn) error {
	lctx, cancel := clockwork.WithTimeout(ctx, cfg.Clock, cfg.Health)
	defer cancel()
	for _, ch := range cfg.Channels {
		if _, err := conn.Exec(lctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			return lostError("LISTEN "+ch+" failed", err)
		}
	}
	return nil
}

// deliver passes notifications to Notify in order. While none comes for
// half of Health it pings, giving the server the other half to answer:
// a dead or half-open connection is found within Health.
func deliver(ctx context.Context, cfg Config, conn *pgx.Conn) error {
	half := cfg.Health / 2
	for {
		wctx, cancel := clockwork.WithTimeout(ctx, cfg.Clock, half)
		n, err := conn.WaitForNotification(wctx)
		idle := wctx.Err() != nil
		cancel()
		if n != nil {
			cfg.Notify(Notification{Channel: n.Channel, Payload: n.Payload, At: cfg.Clock.Now()})
		}
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err == nil:
			continue
		case !idle:
			return lostError("the connection broke", err)
		}
		if err := ping(ctx, cfg.Clock, conn, half); err != nil {
			return err
		}
	}
}

// ping checks an idle connection, waiting at most d for the answer.
func ping(ctx context.Context, clock clockwork.Clock, conn *pgx.Conn, d time.Duration) error {
	pctx, cancel := clockwork.WithTimeout(ctx, clock, d)
	defer cancel()
	err := conn.Ping(pctx)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil && pctx.Err() != nil:
		return lostError("no answer to a ping within "+d.String(), err)
	case err != nil:
		return lostError("the connection broke", err)
	}
	return nil
}
