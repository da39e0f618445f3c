package op

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// GrantEnrollmentRenewal implements lifecycle.EnrollmentStore.
func (s Store) GrantEnrollmentRenewal(ctx context.Context, nodeID string, until time.Time) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.GrantEnrollmentRenewal"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		cur, ok, err := tx.NewestEnrollToken(nodeID)
		if err != nil {
			return err
		}
		if t, err = rules.Grant(op, cur, ok, until); err != nil {
			return err
		}
		return tx.SaveEnrollToken(t, false, false)
	})
	return t, err
}

// RenewEnrollmentToken implements lifecycle.EnrollmentStore.
func (s Store) RenewEnrollmentToken(ctx context.Context, hash, nodeID string, next lifecycle.EnrollmentToken) (out lifecycle.EnrollmentToken, err error) {
	const op = "store.RenewEnrollmentToken"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		r, err := loadRenewal(tx, op, hash, nodeID, next)
		if err != nil {
			return err
		}
		old, created, replay, err := rules.Renew(op, r, nodeID, s.b.Now())
		switch {
		case err != nil:
			return err
		case replay:
			out, _, err = tx.LoadEnrollToken(next.Hash)
			return err
		}
		out = created
		if err := tokenFree(tx, op, created.Hash); err != nil {
			return err
		}
		if err := tx.SaveEnrollToken(old, false, false); err != nil {
			return err
		}
		return tx.SaveEnrollToken(created, true, true)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return out, nil
}

// loadRenewal reads what rules.Renew decides on.
func loadRenewal(tx Tx, op, hash, nodeID string, next lifecycle.EnrollmentToken) (r rules.Renewal, err error) {
	r.Next = next
	if r.Newest, err = tx.NewestEnrollHash(nodeID); err != nil {
		return r, err
	}
	if r.Old, r.Found, err = tx.LoadEnrollToken(hash); err != nil {
		return r, err
	}
	r.Node, err = LoadNode(tx, op, nodeID)
	return r, err
}
