package op

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Outbox is the outbox of events to publish.
type Outbox interface {
	// PruneOutbox deletes up to limit events delivered before the cutoff,
	// oldest delivery first, keeping those whose run exists and is not
	// Terminal (its stages may run again and publish them again); it
	// returns how many went.
	PruneOutbox(before time.Time, limit int) (int, error)
}

// PruneDelivered implements lifecycle.OutboxStore.
func (s Store) PruneDelivered(ctx context.Context, before time.Time, limit int) (n int, err error) {
	const op = "store.PruneDelivered"
	if limit <= 0 {
		return 0, lifecycle.Invalid(op, "limit", "limit %d is not positive", limit)
	}
	err = s.b.Update(ctx, op, func(tx Tx) error {
		n, err = tx.PruneOutbox(before, limit)
		return err
	})
	return n, err
}
