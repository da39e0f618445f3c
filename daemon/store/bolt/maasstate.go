package bolt

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

// LoadMaasState implements op.MaasStates.
func (t txn) LoadMaasState(nodeID string) (lifecycle.NodeMaasState, bool, error) {
	var st lifecycle.NodeMaasState
	ok, err := get(t.Bucket(bMaasState), nodeID, &st)
	return st, ok, err
}

// SaveMaasState implements op.MaasStates.
func (t txn) SaveMaasState(st lifecycle.NodeMaasState) error {
	return put(t.Bucket(bMaasState), []byte(st.NodeID), st)
}

// NodeRef implements op.MaasStates, decoding only the fields it returns.
func (t txn) NodeRef(id string) (lifecycle.Node, bool, error) {
	var n nodeRef
	ok, err := get(t.Bucket(bNodes), id, &n)
	return lifecycle.Node{ID: n.ID, SiteID: n.SiteID, MaasSystemID: n.MaasSystemID}, ok, err
}

// nodeRef is the part of a node record its MAAS state record takes
// (decoded alone: a batch reads thousands of nodes).
type nodeRef struct {
	ID           string `json:"id"`
	SiteID       string `json:"site_id"`
	MaasSystemID string `json:"maas_system_id"`
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
