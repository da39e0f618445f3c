package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// MaasStates are the nodes' MAAS state records, keyed by node.
type MaasStates interface {
	// LoadMaasState returns the node's record; false when there is none.
	LoadMaasState(nodeID string) (lifecycle.NodeMaasState, bool, error)
	// SaveMaasState writes st.
	SaveMaasState(st lifecycle.NodeMaasState) error
	// NodeRef returns the node's id, site and MAAS system id (its other
	// fields may be zero: a batch reads thousands); false when there is
	// no such node.
	NodeRef(id string) (lifecycle.Node, bool, error)
}

// UpdateNodeMaasState implements lifecycle.MaasStateStore.
func (s Store) UpdateNodeMaasState(ctx context.Context, nodeID string, fn func(*lifecycle.NodeMaasState) error) (out lifecycle.NodeMaasState, err error) {
	const op = "store.UpdateNodeMaasState"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		n, err := LoadNode(tx, op, nodeID)
		if err != nil {
			return err
		}
		out, err = saveMaasState(tx, op, n, fn)
		return err
	})
	if err != nil {
		return lifecycle.NodeMaasState{}, err
	}
	return out, nil
}

// UpdateNodeMaasStates implements lifecycle.MaasStateStore.
func (s Store) UpdateNodeMaasStates(ctx context.Context, nodeIDs []string, fn func(*lifecycle.NodeMaasState) error) (out []lifecycle.NodeMaasState, err error) {
	const op = "store.UpdateNodeMaasStates"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		out = make([]lifecycle.NodeMaasState, 0, len(nodeIDs))
		for _, id := range nodeIDs {
			n, ok, err := tx.NodeRef(id)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			st, err := saveMaasState(tx, op, n, fn)
			if err != nil {
				return err
			}
			out = append(out, st)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// saveMaasState applies fn to node n's record in tx and saves it.
func saveMaasState(tx MaasStates, op string, n lifecycle.Node, fn func(*lifecycle.NodeMaasState) error) (lifecycle.NodeMaasState, error) {
	st, ok, err := tx.LoadMaasState(n.ID)
	if err != nil {
		return st, err
	}
	if st, err = rules.UpdateMaasState(op, n, st, ok, fn); err != nil {
		return st, err
	}
	return st, tx.SaveMaasState(st)
}

// GetNodeMaasState implements lifecycle.MaasStateStore.
func (s Store) GetNodeMaasState(ctx context.Context, nodeID string) (st lifecycle.NodeMaasState, err error) {
	const op = "store.GetNodeMaasState"
	err = s.b.View(ctx, op, func(tx Tx) error {
		var ok bool
		st, ok, err = tx.LoadMaasState(nodeID)
		if err == nil && !ok {
			err = notFound(op, "node MAAS state", nodeID)
		}
		return err
	})
	return st, err
}
