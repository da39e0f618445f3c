package sdnotify

import (
	"context"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"
)

// checkTimeout bounds one health check of the watchdog loop.
const checkTimeout = 2 * time.Second

// Watchdog keeps systemd's watchdog fed while the process is healthy:
// every Interval/2 it runs Check and, when that passes, sends WATCHDOG=1.
// A daemon whose store stops answering, or an agent whose loop stalls,
// therefore stops feeding the watchdog and systemd restarts it.
type Watchdog struct {
	Interval time.Duration // systemd's interval; 0 disables the loop
	Check    func(ctx context.Context) error
	Notifier *Notifier
	Logger   *slog.Logger
	Clock    clockwork.Clock // times the checks; the real clock when nil
}

// Run feeds the watchdog until ctx is done; it always returns nil.
func (w *Watchdog) Run(ctx context.Context) error {
	if w.Interval <= 0 {
		<-ctx.Done()
		return nil
	}
	clock := w.Clock
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	t := clock.NewTicker(w.Interval / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.Chan():
			w.tick(ctx)
		}
	}
}

func (w *Watchdog) tick(ctx context.Context) {
	cctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	if err := w.Check(cctx); err != nil {
		w.Logger.Warn("health check failed; watchdog not fed", "err", err)
		return
	}
	w.Notifier.Watchdog()
}
