package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// ReinstateEnrollmentToken implements lifecycle.EnrollmentStore.
func (s Store) ReinstateEnrollmentToken(ctx context.Context, nodeID, hash string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.ReinstateEnrollmentToken"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		cur, found, err := tx.LoadEnrollToken(hash)
		if err != nil {
			return err
		}
		newest, _, err := tx.NewestEnrollToken(nodeID)
		if err != nil {
			return err
		}
		var write bool
		if t, newest, write, err = rules.Reinstate(op, cur, found, newest, nodeID, s.b.Now()); err != nil || !write {
			return err
		}
		if err := tx.SaveEnrollToken(newest, false, false); err != nil {
			return err
		}
		return tx.SaveEnrollToken(t, false, true)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return t, nil
}
