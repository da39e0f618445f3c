//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"sort"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// CreateRun implements lifecycle.RunStore.
func (s *Store) CreateRun(ctx context.Context, r lifecycle.Run) error {
	const op = "store.CreateRun"
	if err := validateNewRun(op, r); err != nil {
		return err
	}
	return s.update(ctx, op, func(tx *sql.Tx) error {
		if _, err := loadSite(tx, op, r.SiteID); err != nil {
			return err
		}
		if ok, err := exists(tx, `SELECT 1 FROM runs WHERE id = ?`, r.ID); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "run %q already exists", r.ID)
			}
			return err
		}
		now := s.now()
		if r.RequestedAt.IsZero() {
			r.RequestedAt = now
		}
		r.UpdatedAt = now
		return saveRun(tx, r, true)
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

func loadRun(tx *sql.Tx, op, id string) (lifecycle.Run, error) {
	var r lifecycle.Run
	ok, err := get(tx, &r, `SELECT data FROM runs WHERE id = ?`, id)
	if err == nil && !ok {
		err = notFound(op, "run", id)
	}
	return r, err
}

// GetRun implements lifecycle.RunStore.
func (s *Store) GetRun(ctx context.Context, id string) (r lifecycle.Run, err error) {
	const op = "store.GetRun"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		r, err = loadRun(tx, op, id)
		return err
	})
	return r, err
}

// ListRuns implements lifecycle.RunStore.
func (s *Store) ListRuns(ctx context.Context, f lifecycle.RunFilter) ([]lifecycle.Run, error) {
	var all []lifecycle.Run
	err := s.view(ctx, "store.ListRuns", func(tx *sql.Tx) (err error) {
		all, err = list[lifecycle.Run](tx, `SELECT data FROM runs WHERE ?1 = '' OR site_id = ?1`, f.SiteID)
		return err
	})
	out := []lifecycle.Run{}
	for _, r := range all {
		if runMatches(f, r) {
			out = append(out, r)
		}
	}
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
	err = s.update(ctx, op, func(tx *sql.Tx) error {
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
		return saveRun(tx, r, false)
	})
	if err != nil {
		return lifecycle.Run{}, nil, err
	}
	return r, out, nil
}

// fencedRun checks the fence and that the run belongs to the fenced site;
// it returns the run and the site's current lease, whose holder and epoch
// stamp the journal entries the caller appends.
func fencedRun(tx *sql.Tx, op string, f lifecycle.Fence, id string) (lifecycle.Run, lifecycle.Lease, error) {
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

func saveRun(tx *sql.Tx, r lifecycle.Run, create bool) error {
	data, err := js(r)
	if err != nil {
		return err
	}
	q := `UPDATE runs SET data = ?3 WHERE id = ?1 AND site_id = ?2`
	if create {
		q = `INSERT INTO runs (id, site_id, data) VALUES (?1, ?2, ?3)`
	}
	_, err = tx.Exec(q, r.ID, r.SiteID, data)
	return err
}
