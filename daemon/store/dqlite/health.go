//go:build dqlite

package dqlite

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// healthSchema is migration 8 (IF NOT EXISTS, as migration 7: a store
// rolled back to an older version by hand keeps its history): a node's
// health is one row; its history is ordered by (node_id, seq) and found
// by (node_id, id).
var healthSchema = []string{
	`CREATE TABLE IF NOT EXISTS node_health (node_id TEXT PRIMARY KEY, site_id TEXT NOT NULL, data TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS node_health_log (node_id TEXT NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
		PRIMARY KEY (node_id, seq), UNIQUE (node_id, id))`,
}

// NodeHealth implements op.Health.
func (t txn) NodeHealth(nodeID string) (lifecycle.NodeHealth, bool, error) {
	var h lifecycle.NodeHealth
	ok, err := get(t.Tx, &h, `SELECT data FROM node_health WHERE node_id = ?`, nodeID)
	return h, ok, err
}

// SaveNodeHealth implements op.Health.
func (t txn) SaveNodeHealth(h lifecycle.NodeHealth) error {
	data, err := js(h)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO node_health (node_id, site_id, data) VALUES (?1, ?2, ?3)
		ON CONFLICT (node_id) DO UPDATE SET data = excluded.data`, h.NodeID, h.SiteID, data)
	return err
}

// AllNodeHealth implements op.Health.
func (t txn) AllNodeHealth() ([]lifecycle.NodeHealth, error) {
	return list[lifecycle.NodeHealth](t.Tx, `SELECT data FROM node_health ORDER BY node_id`)
}

// HealthEntryByID implements op.Health.
func (t txn) HealthEntryByID(nodeID, id string) (lifecycle.HealthEntry, bool, error) {
	var e lifecycle.HealthEntry
	ok, err := get(t.Tx, &e, `SELECT data FROM node_health_log WHERE node_id = ? AND id = ?`, nodeID, id)
	return e, ok, err
}

// SaveHealthEntry implements op.Health.
func (t txn) SaveHealthEntry(e lifecycle.HealthEntry) error {
	data, err := js(e)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO node_health_log (node_id, seq, id, data) VALUES (?1, ?2, ?3, ?4)
		ON CONFLICT (node_id, seq) DO UPDATE SET data = excluded.data`, e.NodeID, int64(e.Seq), e.ID, data)
	return err
}

// HealthEntries implements op.Health.
func (t txn) HealthEntries(nodeID string, limit int) ([]lifecycle.HealthEntry, error) {
	if limit <= 0 {
		limit = -1
	}
	return list[lifecycle.HealthEntry](t.Tx, `SELECT data FROM node_health_log WHERE node_id = ? ORDER BY seq DESC LIMIT ?`,
		nodeID, limit)
}
