package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// ConsumeEnrollmentToken implements lifecycle.EnrollmentStore.
func (s Store) ConsumeEnrollmentToken(ctx context.Context, hash, nodeID, keyID string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.ConsumeEnrollmentToken"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		cur, ok, err := tx.LoadEnrollToken(hash)
		if err != nil {
			return err
		}
		var write bool
		if t, write, err = rules.Consume(op, cur, ok, nodeID, keyID, s.b.Now()); err != nil || !write {
			return err
		}
		return tx.SaveEnrollToken(t, false, false)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return t, nil
}

// ConsumeBootstrapTicket implements lifecycle.EnrollmentStore.
func (s Store) ConsumeBootstrapTicket(ctx context.Context, hash string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.ConsumeBootstrapTicket"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		cur, ok, err := tx.LoadEnrollToken(hash)
		if err != nil {
			return err
		}
		if t, err = rules.ConsumeTicket(op, cur, ok, s.b.Now()); err != nil {
			return err
		}
		return tx.SaveEnrollToken(t, false, false)
	})
	if err != nil {
		return lifecycle.EnrollmentToken{}, err
	}
	return t, nil
}

// NodeEnrollmentToken implements lifecycle.EnrollmentStore.
func (s Store) NodeEnrollmentToken(ctx context.Context, nodeID string) (t lifecycle.EnrollmentToken, err error) {
	const op = "store.NodeEnrollmentToken"
	err = s.b.View(ctx, op, func(tx Tx) error {
		var ok bool
		t, ok, err = tx.NewestEnrollToken(nodeID)
		if err == nil && !ok {
			err = lifecycle.Errorf(lifecycle.CodeNotFound, op, "node %s has no enrollment token", nodeID)
		}
		return err
	})
	return t, err
}
