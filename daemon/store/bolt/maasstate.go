package bolt

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

// UpdateNodeMaasState implements lifecycle.MaasStateStore.
func (s *Store) UpdateNodeMaasState(ctx context.Context, nodeID string, fn func(*lifecycle.NodeMaasState) error) (out lifecycle.NodeMaasState, err error) {
	const op = "store.UpdateNodeMaasState"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		n, err := loadNode(tx, op, nodeID)
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
func (s *Store) UpdateNodeMaasStates(ctx context.Context, nodeIDs []string, fn func(*lifecycle.NodeMaasState) error) (out []lifecycle.NodeMaasState, err error) {
	const op = "store.UpdateNodeMaasStates"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		out = make([]lifecycle.NodeMaasState, 0, len(nodeIDs))
		for _, id := range nodeIDs {
			var n nodeRef
			ok, err := get(tx.Bucket(bNodes), id, &n)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			st, err := saveMaasState(tx, op, lifecycle.Node{ID: n.ID, SiteID: n.SiteID, MaasSystemID: n.MaasSystemID}, fn)
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

// nodeRef is the part of a node record its MAAS state record takes
// (decoded alone: a batch reads thousands of nodes).
type nodeRef struct {
	ID           string `json:"id"`
	SiteID       string `json:"site_id"`
	MaasSystemID string `json:"maas_system_id"`
}

// saveMaasState applies fn to node n's record in tx and saves it.
func saveMaasState(tx *bbolt.Tx, op string, n lifecycle.Node, fn func(*lifecycle.NodeMaasState) error) (lifecycle.NodeMaasState, error) {
	b := tx.Bucket(bMaasState)
	var st lifecycle.NodeMaasState
	ok, err := get(b, n.ID, &st)
	if err != nil {
		return st, err
	}
	if st, err = rules.UpdateMaasState(op, n, st, ok, fn); err != nil {
		return st, err
	}
	return st, put(b, []byte(n.ID), st)
}

// GetNodeMaasState implements lifecycle.MaasStateStore.
func (s *Store) GetNodeMaasState(ctx context.Context, nodeID string) (st lifecycle.NodeMaasState, err error) {
	const op = "store.GetNodeMaasState"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		ok, err := get(tx.Bucket(bMaasState), nodeID, &st)
		if err == nil && !ok {
			err = notFound(op, "node MAAS state", nodeID)
		}
		return err
	})
	return st, err
}

// ListNodeMaasStates implements lifecycle.MaasStateStore: records keyed
// by node id, walked from the page's cursor until Limit match.
func (s *Store) ListNodeMaasStates(ctx context.Context, f lifecycle.MaasStateFilter) ([]lifecycle.NodeMaasState, error) {
	out := []lifecycle.NodeMaasState{}
	err := s.view(ctx, "store.ListNodeMaasStates", func(tx *bbolt.Tx) error {
		b := tx.Bucket(bMaasState)
		c := b.Cursor()
		for k, _ := seekAfter(c, nil, []byte(f.After)); k != nil; k, _ = c.Next() {
			var st lifecycle.NodeMaasState
			if _, err := get(b, string(k), &st); err != nil {
				return err
			}
			if (f.SiteID == "" || f.SiteID == st.SiteID) && (!f.DriftOnly || st.DriftDetected) {
				out = append(out, st)
			}
			if f.Limit > 0 && len(out) == f.Limit {
				break
			}
		}
		return nil
	})
	return out, err
}
