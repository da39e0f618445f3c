package notifyfwd

import (
	"context"
	"slices"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/maas/pgnotify"
)

// pending is a machine's notifications gathered so far.
type pending struct {
	sid, channel string // the latest channel
	first, due   time.Time
}

// debounce gathers notifications per machine: the first starts a window
// of Debounce, the others within it only update the type; when the
// window closes, one hint goes to the queue, stamped with the first
// notification's time.
func (f *forwarder) debounce(ctx context.Context, in <-chan pgnotify.Notification) error {
	gathered := map[string]*pending{}
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case n := <-in:
			f.gather(gathered, n)
		case <-timer:
		}
		timer = f.flush(gathered)
	}
}

func (f *forwarder) gather(gathered map[string]*pending, n pgnotify.Notification) {
	sid, ok := payloadID(n.Payload)
	if !ok {
		f.log.Warn("notification ignored: the payload is not a MAAS system id", "channel", n.Channel)
		return
	}
	if p, ok := gathered[sid]; ok {
		p.channel = n.Channel
		return
	}
	gathered[sid] = &pending{sid: sid, channel: n.Channel, first: n.At, due: n.At.Add(f.cfg.Debounce)}
}

// flush queues the machines whose window has closed, oldest first, and
// returns the timer of the next window to close (nil when none).
func (f *forwarder) flush(gathered map[string]*pending) <-chan time.Time {
	now := f.cfg.Clock.Now()
	var due []*pending
	next := time.Time{}
	for _, p := range gathered {
		switch {
		case !p.due.After(now):
			due = append(due, p)
		case next.IsZero() || p.due.Before(next):
			next = p.due
		}
	}
	slices.SortFunc(due, func(a, b *pending) int { return a.first.Compare(b.first) })
	for _, p := range due {
		delete(gathered, p.sid)
		f.queue.push(newHint(f.cfg.ID(), p.channel, p.sid, p.first))
	}
	if next.IsZero() {
		return nil
	}
	return f.cfg.Clock.After(next.Sub(now))
}
