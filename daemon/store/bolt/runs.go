package bolt

import (
	"context"
	"sort"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// CreateRun implements lifecycle.RunStore.
func (s *Store) CreateRun(ctx context.Context, r lifecycle.Run) error {
	const op = "store.CreateRun"
	if err := validateNewRun(op, r); err != nil {
		return err
	}
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		if _, err := loadSite(tx, op, r.SiteID); err != nil {
			return err
		}
		if tx.Bucket(bRuns).Get([]byte(r.ID)) != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "run %q already exists", r.ID)
		}
		now := s.now()
		if r.RequestedAt.IsZero() {
			r.RequestedAt = now
		}
		r.UpdatedAt = now
		if _, err := tx.Bucket(bEvents).CreateBucket([]byte(r.ID)); err != nil {
			return err
		}
		return put(tx.Bucket(bRuns), []byte(r.ID), r)
	})
}

func validateNewRun(op string, r lifecycle.Run) error {
	switch {
	case r.ID == "":
		return lifecycle.Invalid(op, "id", "run id is required")
	case r.SiteID == "":
		return lifecycle.Invalid(op, "site_id", "site_id is required")
	case r.Kind != lifecycle.RunOnboarding && r.Kind != lifecycle.RunDecommission:
		return lifecycle.Invalid(op, "kind", "kind %q is not onboarding or decommission", r.Kind)
	case r.Status != lifecycle.JobPending:
		return lifecycle.Invalid(op, "status", "a new run is pending, not %q", r.Status)
	}
	return nil
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

// ListRuns implements lifecycle.RunStore.
func (s *Store) ListRuns(ctx context.Context, f lifecycle.RunFilter) ([]lifecycle.Run, error) {
	out := []lifecycle.Run{}
	err := s.view(ctx, "store.ListRuns", func(tx *bbolt.Tx) error {
		return tx.Bucket(bRuns).ForEach(func(k, _ []byte) error {
			var r lifecycle.Run
			if _, err := get(tx.Bucket(bRuns), string(k), &r); err != nil {
				return err
			}
			if runMatches(f, r) {
				out = append(out, r)
			}
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool {
		if !out[i].RequestedAt.Equal(out[j].RequestedAt) {
			return out[i].RequestedAt.Before(out[j].RequestedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, err
}

func runMatches(f lifecycle.RunFilter, r lifecycle.Run) bool {
	if (f.SiteID != "" && f.SiteID != r.SiteID) || (f.BatchID != "" && f.BatchID != r.BatchID) ||
		(f.NodeID != "" && f.NodeID != r.NodeID) || (f.Kind != "" && f.Kind != r.Kind) {
		return false
	}
	if len(f.Statuses) == 0 {
		return true
	}
	for _, st := range f.Statuses {
		if st == r.Status {
			return true
		}
	}
	return false
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
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		old, l, err := fencedRun(tx, op, f, id)
		if err != nil {
			return err
		}
		r = old
		if err := fn(&r); err != nil {
			return err
		}
		if r.ID != old.ID || r.Kind != old.Kind || r.SiteID != old.SiteID {
			return lifecycle.Invalid(op, "id", "a run's id, kind and site cannot change")
		}
		if err := lifecycle.CheckJobMove(old.Status, r.Status); err != nil {
			return err
		}
		now := s.now()
		r.RequestedAt, r.UpdatedAt = old.RequestedAt, now
		if out, err = appendEvents(tx, id, now, l, evs); err != nil {
			return err
		}
		return put(tx.Bucket(bRuns), []byte(id), r)
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
	if err == nil && r.SiteID != f.SiteID {
		err = lifecycle.Errorf(lifecycle.CodeConflict, op, "run %s belongs to site %s, not the fenced site %s", id, r.SiteID, f.SiteID)
	}
	return r, l, err
}
