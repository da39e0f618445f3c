//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// UpdateNodeMaasState implements lifecycle.MaasStateStore.
func (s *Store) UpdateNodeMaasState(ctx context.Context, nodeID string, fn func(*lifecycle.NodeMaasState) error) (out lifecycle.NodeMaasState, err error) {
	const op = "store.UpdateNodeMaasState"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
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
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		out = make([]lifecycle.NodeMaasState, 0, len(nodeIDs))
		for _, id := range nodeIDs {
			var n lifecycle.Node
			ok, err := get(tx, &n, `SELECT data FROM nodes WHERE id = ?`, id)
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
func saveMaasState(tx *sql.Tx, op string, n lifecycle.Node, fn func(*lifecycle.NodeMaasState) error) (lifecycle.NodeMaasState, error) {
	var st lifecycle.NodeMaasState
	ok, err := get(tx, &st, `SELECT data FROM node_maas_state WHERE node_id = ?`, n.ID)
	if err != nil {
		return st, err
	}
	if st, err = rules.UpdateMaasState(op, n, st, ok, fn); err != nil {
		return st, err
	}
	data, err := js(st)
	if err != nil {
		return st, err
	}
	_, err = tx.Exec(`INSERT INTO node_maas_state (node_id, site_id, data) VALUES (?1, ?2, ?3)
		ON CONFLICT (node_id) DO UPDATE SET data = excluded.data`, st.NodeID, st.SiteID, data)
	return st, err
}

// GetNodeMaasState implements lifecycle.MaasStateStore.
func (s *Store) GetNodeMaasState(ctx context.Context, nodeID string) (st lifecycle.NodeMaasState, err error) {
	const op = "store.GetNodeMaasState"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &st, `SELECT data FROM node_maas_state WHERE node_id = ?`, nodeID)
		if err == nil && !ok {
			err = notFound(op, "node MAAS state", nodeID)
		}
		return err
	})
	return st, err
}

// ListNodeMaasStates implements lifecycle.MaasStateStore: in node id
// order through the primary key, a page from its cursor in SQL.
func (s *Store) ListNodeMaasStates(ctx context.Context, f lifecycle.MaasStateFilter) (out []lifecycle.NodeMaasState, err error) {
	err = s.view(ctx, "store.ListNodeMaasStates", func(tx *sql.Tx) error {
		out, err = list[lifecycle.NodeMaasState](tx, `SELECT data FROM node_maas_state WHERE (?1 = '' OR site_id = ?1)
			AND (?2 = 0 OR json_extract(data, '$.drift_detected') = 1) AND node_id > ?3 ORDER BY node_id LIMIT ?4`,
			f.SiteID, boolInt(f.DriftOnly), f.After, sqlLimit(f.Limit))
		return err
	})
	if out == nil {
		out = []lifecycle.NodeMaasState{}
	}
	return out, err
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
