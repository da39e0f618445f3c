package notifyfwd

import (
	"context"

	"github.com/gpuaas/maas-sidecar/internal/backoff"
)

// send POSTs the queued hints, up to MaxBatch waiting ones in one POST,
// each POST until it is delivered or dropped, waiting a jittered backoff
// between attempts.
func (f *forwarder) send(ctx context.Context) error {
	seq := backoff.Sequence{Policy: backoff.Policy{Initial: min(2*f.cfg.MinBackoff, f.cfg.MaxBackoff), Max: f.cfg.MaxBackoff}}
	for {
		h := f.queue.popN(f.cfg.MaxBatch)
		if len(h) == 0 {
			select {
			case <-ctx.Done():
				return nil
			case <-f.queue.wake:
				continue
			}
		}
		if !f.deliver(ctx, h, &seq) {
			return nil
		}
	}
}

// deliver tries the hints h until they are delivered or dropped; false
// when ctx ended. A batch's log lines name its first hint.
func (f *forwarder) deliver(ctx context.Context, h []hint, seq *backoff.Sequence) bool {
	defer seq.Reset()
	log := f.log.With("node", h[0].SystemID, "event", h[0].ID, "type", h[0].Type, "hints", len(h))
	for attempt := 1; ; attempt++ {
		out, err := f.post(ctx, h)
		if ctx.Err() != nil {
			return false
		}
		switch out {
		case delivered:
			f.metrics.deliveredAt(f.cfg.Clock.Now(), len(h))
			log.Debug("hint delivered", "attempt", attempt)
			return true
		case dropped:
			for range h {
				f.metrics.drop(dropRefused)
			}
			log.Error("hint dropped", "attempt", attempt, "err", err)
			return true
		}
		f.metrics.retries.Inc()
		delay := max(seq.Next(), f.cfg.MinBackoff)
		if out == misconfigured {
			log.Error("hint not delivered: the forwarder's settings are wrong; retrying", "attempt", attempt,
				"retry_in", delay.String(), "url", f.cfg.URL, "err", err)
		} else {
			log.Warn("hint not delivered, retrying", "attempt", attempt, "retry_in", delay.String(), "err", err)
		}
		select {
		case <-ctx.Done():
			return false
		case <-f.cfg.Clock.After(delay):
		}
	}
}
