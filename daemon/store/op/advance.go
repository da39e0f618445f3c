package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// UpdateRun implements lifecycle.RunStore.
func (s Store) UpdateRun(ctx context.Context, f lifecycle.Fence, id string, fn func(*lifecycle.Run) error) (lifecycle.Run, error) {
	r, _, err := s.advance(ctx, "store.UpdateRun", f, id, fn, nil)
	return r, err
}

// AdvanceRun implements lifecycle.RunStore.
func (s Store) AdvanceRun(ctx context.Context, f lifecycle.Fence, id string, fn func(*lifecycle.Run) error, evs []lifecycle.RunEvent) (lifecycle.Run, []lifecycle.RunEvent, error) {
	return s.advance(ctx, "store.AdvanceRun", f, id, fn, evs)
}

// advance is one fenced run change with its journal entries, in a
// shared commit (Batch): every runner of a site advances at once.
func (s Store) advance(ctx context.Context, op string, f lifecycle.Fence, id string, fn func(*lifecycle.Run) error, evs []lifecycle.RunEvent) (r lifecycle.Run, out []lifecycle.RunEvent, err error) {
	err = s.b.Batch(ctx, op, func(tx Tx) error {
		old, l, err := fencedRun(tx, op, f, id)
		if err != nil {
			return err
		}
		now := s.b.Now()
		if r, err = rules.AdvanceRun(op, old, fn, now); err != nil {
			return err
		}
		if out, err = appendEvents(tx, id, now, l, evs); err != nil {
			return err
		}
		return tx.SaveRun(r, false)
	})
	if err != nil {
		return lifecycle.Run{}, nil, err
	}
	return r, out, nil
}
