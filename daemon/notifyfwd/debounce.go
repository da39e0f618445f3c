package notifyfwd

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

// debounce gathers notifications per machine: the first starts a window
// of Debounce, the others within it only update the type; when the
// window closes, one hint goes to the queue, stamped with the first
// notification's time. It also answers the liveness probe.
func (f *forwarder) debounce(ctx context.Context, in <-chan pgnotify.Notification) error {
	g := newGathering(f.cfg.MaxPending)
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case n := <-in:
			f.gather(g, n)
		case <-timer:
		case ack := <-f.probe:
			close(ack)
		}
		timer = f.flush(g)
	}
}

func (f *forwarder) gather(g *gathering, n pgnotify.Notification) {
	sid, ok := payloadID(n.Payload)
	if !ok {
		f.metrics.drop(dropNotSystemID)
		f.log.Warn("notification ignored: the payload is not a MAAS system id", "channel", n.Channel)
		return
	}
	if !g.add(sid, n.Channel, n.At, f.cfg.Debounce) {
		f.overflow(dropPendingFull)
	}
}

// flush queues the machines whose window has closed, oldest first, and
// returns the timer of the next window to close (nil when none).
func (f *forwarder) flush(g *gathering) <-chan time.Time {
	now := f.cfg.Clock.Now()
	for p, ok := g.closed(now); ok; p, ok = g.closed(now) {
		if !f.queue.push(newHint(f.cfg.ID(), p.channel, p.sid, p.first)) {
			f.overflow(dropQueueFull)
		}
	}
	next, ok := g.next()
	if !ok {
		return nil
	}
	return f.cfg.Clock.After(next.Sub(now))
}

// overflowEvery is how often a flood's drops are logged.
const overflowEvery = time.Minute

// overflow counts a machine dropped at a cap and logs the drops at most
// once a minute per reason, with their number since the last line. Only
// the debounce goroutine calls it.
func (f *forwarder) overflow(reason string) {
	f.metrics.drop(reason)
	f.unlogged[reason]++
	now := f.cfg.Clock.Now()
	if last, ok := f.loggedAt[reason]; ok && now.Sub(last) < overflowEvery && !now.Before(last) {
		return
	}
	f.log.Warn("notifications dropped: too many machines waiting (a flood of notifications?); "+
		"the daemon's events cursor still finds their changes", "reason", reason, "dropped", f.unlogged[reason],
		"max_pending", f.cfg.MaxPending)
	f.loggedAt[reason], f.unlogged[reason] = now, 0
}
