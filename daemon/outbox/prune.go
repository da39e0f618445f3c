package outbox

import "context"

// pruneBatch bounds the events one store transaction deletes.
const pruneBatch = 1000

// Prune deletes the events delivered more than Retention ago (the store
// keeps those of runs that can still act) and returns how many it
// deleted. With Retention 0 it deletes nothing.
func (p *Poster) Prune(ctx context.Context) (int, error) {
	if p.o.Retention <= 0 {
		return 0, nil
	}
	before := p.o.Clock.Now().Add(-p.o.Retention)
	total := 0
	for {
		n, err := p.o.Store.PruneDelivered(ctx, before, pruneBatch)
		total += n
		if err != nil || n < pruneBatch {
			return total, err
		}
	}
}

func (p *Poster) logPrune(ctx context.Context, n int, err error) {
	switch {
	case err != nil && ctx.Err() == nil:
		p.o.Logger.Warn("pruning delivered events failed", "err", err)
	case n > 0:
		p.o.Logger.Info("delivered events pruned", "count", n, "retention", p.o.Retention)
	}
}
