package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Runs are the onboarding and decommission runs, indexed for their lists.
type Runs interface {
	// LoadRun returns the run; false when there is none.
	LoadRun(id string) (lifecycle.Run, bool, error)
	// RunExists says whether a run has the id.
	RunExists(id string) (bool, error)
	// SaveRun writes r (a new run when create: its journal starts empty)
	// and moves its index entries.
	SaveRun(r lifecycle.Run, create bool) error
}

// CreateRun implements lifecycle.RunStore.
func (s Store) CreateRun(ctx context.Context, r lifecycle.Run) error {
	const op = "store.CreateRun"
	if err := rules.ValidateNewRun(op, r); err != nil {
		return err
	}
	return s.b.Update(ctx, op, func(tx Tx) error {
		if err := runFree(tx, op, r); err != nil {
			return err
		}
		return tx.SaveRun(rules.StampNewRun(r, s.b.Now()), true)
	})
}

// LoadRun returns the run, not found naming op when there is none.
func LoadRun(tx Runs, op, id string) (lifecycle.Run, error) {
	r, ok, err := tx.LoadRun(id)
	if err == nil && !ok {
		err = notFound(op, "run", id)
	}
	return r, err
}

// GetRun implements lifecycle.RunStore.
func (s Store) GetRun(ctx context.Context, id string) (r lifecycle.Run, err error) {
	const op = "store.GetRun"
	err = s.b.View(ctx, op, func(tx Tx) error {
		r, err = LoadRun(tx, op, id)
		return err
	})
	return r, err
}

// fencedRun checks the fence and that the run belongs to the fenced site;
// it returns the run and the site's current lease, whose holder and epoch
// stamp the journal entries the caller appends.
func fencedRun(tx Tx, op string, f lifecycle.Fence, id string) (lifecycle.Run, lifecycle.Lease, error) {
	l, err := CheckFence(tx, op, f)
	if err != nil {
		return lifecycle.Run{}, lifecycle.Lease{}, err
	}
	r, err := LoadRun(tx, op, id)
	if err == nil {
		err = rules.RunInFence(op, f, r)
	}
	return r, l, err
}
