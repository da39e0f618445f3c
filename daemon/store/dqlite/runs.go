//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// CreateRun implements lifecycle.RunStore.
func (s *Store) CreateRun(ctx context.Context, r lifecycle.Run) error {
	const op = "store.CreateRun"
	if err := rules.ValidateNewRun(op, r); err != nil {
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
		r = rules.StampNewRun(r, s.now())
		return saveRun(tx, r, true)
	})
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
		now := s.now()
		if r, err = rules.AdvanceRun(op, old, fn, now); err != nil {
			return err
		}
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
	if err == nil {
		err = rules.RunInFence(op, f, r)
	}
	return r, l, err
}

// saveRun writes r with the columns its lists select and order by.
func saveRun(tx *sql.Tx, r lifecycle.Run, create bool) error {
	data, err := js(r)
	if err != nil {
		return err
	}
	q := `UPDATE runs SET data = ?3, kind = ?4, status = ?5, node_id = ?6, batch_id = ?7, requested_at = ?8
		WHERE id = ?1 AND site_id = ?2`
	if create {
		q = `INSERT INTO runs (id, site_id, data, kind, status, node_id, batch_id, requested_at)
			VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`
	}
	_, err = tx.Exec(q, append([]any{r.ID, r.SiteID, data}, runColumns(r)...)...)
	return err
}
