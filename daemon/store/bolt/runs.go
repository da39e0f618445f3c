package bolt

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

// CreateRun implements lifecycle.RunStore.
func (s *Store) CreateRun(ctx context.Context, r lifecycle.Run) error {
	const op = "store.CreateRun"
	if err := rules.ValidateNewRun(op, r); err != nil {
		return err
	}
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		if _, err := loadSite(tx, op, r.SiteID); err != nil {
			return err
		}
		if tx.Bucket(bRuns).Get([]byte(r.ID)) != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "run %q already exists", r.ID)
		}
		r = rules.StampNewRun(r, s.now())
		if _, err := tx.Bucket(bEvents).CreateBucket([]byte(r.ID)); err != nil {
			return err
		}
		return putRun(tx, r)
	})
}

func loadRun(tx *bbolt.Tx, op, id string) (lifecycle.Run, error) {
	var r lifecycle.Run
	ok, err := get(tx.Bucket(bRuns), id, &r)
	if err == nil && !ok {
		err = notFound(op, "run", id)
	}
	return r, err
}

// GetRun implements lifecycle.RunStore.
func (s *Store) GetRun(ctx context.Context, id string) (r lifecycle.Run, err error) {
	const op = "store.GetRun"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		r, err = loadRun(tx, op, id)
		return err
	})
	return r, err
}

// UpdateRun implements lifecycle.RunStore.
func (s *Store) UpdateRun(ctx context.Context, f lifecycle.Fence, id string, fn func(*lifecycle.Run) error) (lifecycle.Run, error) {
	r, _, err := s.advance(ctx, "store.UpdateRun", f, id, fn, nil)
	return r, err
}

// AdvanceRun implements lifecycle.RunStore.
func (s *Store) AdvanceRun(ctx context.Context, f lifecycle.Fence, id string, fn func(*lifecycle.Run) error, evs []lifecycle.RunEvent) (lifecycle.Run, []lifecycle.RunEvent, error) {
	return s.advance(ctx, "store.AdvanceRun", f, id, fn, evs)
}

func (s *Store) advance(ctx context.Context, op string, f lifecycle.Fence, id string, fn func(*lifecycle.Run) error, evs []lifecycle.RunEvent) (r lifecycle.Run, out []lifecycle.RunEvent, err error) {
	err = s.batch(ctx, op, func(tx *bbolt.Tx) error {
		old, l, err := fencedRun(tx, op, f, id)
		if err != nil {
			return err
		}
		now := s.now()
		if r, err = rules.AdvanceRun(op, old, fn, now); err != nil {
			return err
		}
		if out, err = appendEvents(tx, id, now, l, evs); err != nil {
			return err
		}
		return putRun(tx, r)
	})
	if err != nil {
		return lifecycle.Run{}, nil, err
	}
	return r, out, nil
}

// fencedRun checks the fence and that the run belongs to the fenced site;
// it returns the run and the site's current lease, whose holder and epoch
// stamp the journal entries the caller appends.
func fencedRun(tx *bbolt.Tx, op string, f lifecycle.Fence, id string) (lifecycle.Run, lifecycle.Lease, error) {
	l, err := checkFence(tx, op, f)
	if err != nil {
		return lifecycle.Run{}, lifecycle.Lease{}, err
	}
	r, err := loadRun(tx, op, id)
	if err == nil {
		err = rules.RunInFence(op, f, r)
	}
	return r, l, err
}
