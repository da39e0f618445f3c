package feed

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// maxGroup bounds how many webhooks one store transaction takes.
const maxGroup = 512

type ingestReq struct {
	ev    lifecycle.WebhookEvent
	reply chan ingestResult
}

type ingestResult struct {
	dup bool
	err error
}

// commit hands ev to the group committer and waits until it is durable.
func (f *Feed) commit(ctx context.Context, ev lifecycle.WebhookEvent) (bool, error) {
	const op = "feed.Receive"
	select {
	case <-f.running:
	default:
		return false, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "the change feed is not running")
	}
	req := ingestReq{ev: ev, reply: make(chan ingestResult, 1)}
	select {
	case f.ingest <- req:
	case <-ctx.Done():
		return false, lifecycle.Wrap(lifecycle.CodeUnavailable, op, ctx.Err())
	}
	select {
	case res := <-req.reply:
		return res.dup, res.err
	case <-ctx.Done():
		return false, lifecycle.Wrap(lifecycle.CodeUnavailable, op, ctx.Err())
	}
}

// commitLoop is the group committer: it takes the first waiting webhook
// and every other one already queued (up to maxGroup), stores them in one
// transaction and answers each. While a commit runs the next group forms,
// so a burst costs one fsync per group, not per webhook.
func (f *Feed) commitLoop(ctx context.Context) error {
	group := make([]ingestReq, 0, maxGroup)
	for {
		group = group[:0]
		select {
		case <-ctx.Done():
			return nil
		case req := <-f.ingest:
			group = append(group, req)
		}
	fill:
		for len(group) < maxGroup {
			select {
			case req := <-f.ingest:
				group = append(group, req)
			default:
				break fill
			}
		}
		f.store(ctx, group)
	}
}

func (f *Feed) store(ctx context.Context, group []ingestReq) {
	evs := make([]lifecycle.WebhookEvent, len(group))
	for i, r := range group {
		evs[i] = r.ev
	}
	dup, err := f.cfg.Store.IngestWebhooks(context.WithoutCancel(ctx), evs)
	for i, r := range group {
		res := ingestResult{err: err}
		if err == nil {
			res.dup = dup[i]
		}
		r.reply <- res
	}
	if err == nil {
		f.poke()
	}
}
