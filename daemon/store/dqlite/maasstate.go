//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LoadMaasState implements op.MaasStates.
func (t txn) LoadMaasState(nodeID string) (lifecycle.NodeMaasState, bool, error) {
	var st lifecycle.NodeMaasState
	ok, err := get(t.Tx, &st, `SELECT data FROM node_maas_state WHERE node_id = ?`, nodeID)
	return st, ok, err
}

// SaveMaasState implements op.MaasStates.
func (t txn) SaveMaasState(st lifecycle.NodeMaasState) error {
	data, err := js(st)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO node_maas_state (node_id, site_id, data) VALUES (?1, ?2, ?3)
		ON CONFLICT (node_id) DO UPDATE SET data = excluded.data`, st.NodeID, st.SiteID, data)
	return err
}

// NodeRef implements op.MaasStates: the whole node.
func (t txn) NodeRef(id string) (lifecycle.Node, bool, error) { return t.LoadNode(id) }

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
