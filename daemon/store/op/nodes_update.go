package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// TransitionNode implements lifecycle.NodeStore.
func (s Store) TransitionNode(ctx context.Context, t lifecycle.NodeTransition) (n lifecycle.Node, err error) {
	const op = "store.TransitionNode"
	err = s.b.Batch(ctx, op, func(tx Tx) error {
		cur, err := LoadNode(tx, op, t.NodeID)
		if err != nil {
			return err
		}
		var write bool
		if n, write, err = rules.Transition(op, cur, t, s.b.Now()); err != nil || !write {
			return err
		}
		return tx.SaveNode(&cur, n)
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}

// UpdateNode implements lifecycle.NodeStore.
func (s Store) UpdateNode(ctx context.Context, id string, fn func(*lifecycle.Node) error) (n lifecycle.Node, err error) {
	const op = "store.UpdateNode"
	err = s.b.Batch(ctx, op, func(tx Tx) error {
		old, err := LoadNode(tx, op, id)
		if err != nil {
			return err
		}
		var rehosted bool
		if n, rehosted, err = rules.UpdateNode(op, old, fn, s.b.Now()); err != nil {
			return err
		}
		if rehosted {
			if err := hostFree(tx, op, n.SiteID, n.Hostname); err != nil {
				return err
			}
		}
		if err := recordBOMMoves(tx, op, old, n); err != nil {
			return err
		}
		return tx.SaveNode(&old, n)
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}
