package feed

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ErrBusy is wrapped by Receive's error when the ingest queue is full:
// the webhook route answers 503 with Retry-After (its RetryAfter) at once
// rather than let the sender wait behind a backlog; nothing was stored.
var ErrBusy error = busy{}

// BusyRetryAfter is the Retry-After of a webhook refused with ErrBusy: a
// full queue drains in a few group commits, well within a second.
const BusyRetryAfter = time.Second

type busy struct{}

func (busy) Error() string {
	return "the webhook queue is full; nothing was stored, send it again after Retry-After"
}

// RetryAfter is how long the sender should wait before sending again.
func (busy) RetryAfter() time.Duration { return BusyRetryAfter }

// ingestReq is one webhook's events (one, or a sender's batch), stored
// together in one group commit.
type ingestReq struct {
	evs   []lifecycle.WebhookEvent
	reply chan ingestResult
}

type ingestResult struct {
	dups int // how many of the events were received before
	err  error
}

// commit hands evs to the group committer and waits until they are
// durable; it returns how many were duplicates. It never waits for room:
// a full queue is ErrBusy.
func (f *Feed) commit(ctx context.Context, evs []lifecycle.WebhookEvent) (int, error) {
	const op = "feed.Receive"
	if err := f.Check(ctx); err != nil {
		return 0, err
	}
	req := ingestReq{evs: evs, reply: make(chan ingestResult, 1)}
	select {
	case f.ingest <- req:
	default:
		return 0, lifecycle.Wrap(lifecycle.CodeUnavailable, op, ErrBusy)
	}
	select {
	case res := <-req.reply:
		return res.dups, res.err
	case <-f.stopped: // the committer answered everything it took, or never will
		select {
		case res := <-req.reply:
			return res.dups, res.err
		default:
			return 0, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "the change feed stopped")
		}
	case <-ctx.Done():
		return 0, lifecycle.Wrap(lifecycle.CodeUnavailable, op, ctx.Err())
	}
}

// commitLoop is the group committer: it takes the first waiting webhook
// and every other one already queued, stores them in one transaction (one
// fsync) and answers each. While a commit runs the next group forms, so a
// burst costs one fsync per group, not per webhook.
func (f *Feed) commitLoop(ctx context.Context) error {
	group := make([]ingestReq, 0, cap(f.ingest))
	evs := make([]lifecycle.WebhookEvent, 0, cap(f.ingest))
	for {
		group = group[:0]
		select {
		case <-ctx.Done():
			return nil
		case req := <-f.ingest:
			group = append(group, req)
		}
		n := len(group[0].evs)
	fill: // at most the queue's size in events: a batch counts as its events
		for len(group) < cap(group) && n < cap(group) {
			select {
			case req := <-f.ingest:
				group, n = append(group, req), n+len(req.evs)
			default:
				break fill
			}
		}
		evs = f.store(ctx, group, evs[:0])
	}
}

func (f *Feed) store(ctx context.Context, group []ingestReq, evs []lifecycle.WebhookEvent) []lifecycle.WebhookEvent {
	for _, r := range group {
		evs = append(evs, r.evs...)
	}
	dup, err := f.cfg.Store.IngestWebhooks(context.WithoutCancel(ctx), evs)
	f.cfg.Metrics.committed(len(evs))
	at := 0
	for _, r := range group {
		res := ingestResult{err: err}
		for i := range r.evs {
			if err == nil && dup[at+i] {
				res.dups++
			}
		}
		at += len(r.evs)
		r.reply <- res
	}
	if err == nil {
		f.poke()
	}
	clear(evs) // drop the events' strings until the next group
	return evs
}
