//go:build dqlite

package dqlite

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// partsSchema is migration 8 (IF NOT EXISTS, as the certificates'): one
// row per part event, keyed by serial and event id.
var partsSchema = []string{
	`CREATE TABLE IF NOT EXISTS part_events (serial TEXT NOT NULL, id TEXT NOT NULL, at INTEGER NOT NULL,
		data TEXT NOT NULL, PRIMARY KEY (serial, id))`,
}

// PartEventExists implements op.Parts.
func (t txn) PartEventExists(serial, id string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM part_events WHERE serial = ? AND id = ?`, serial, id)
}

// SavePartEvent implements op.Parts.
func (t txn) SavePartEvent(e lifecycle.PartEvent) error {
	data, err := js(e)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO part_events (serial, id, at, data) VALUES (?1, ?2, ?3, ?4)
		ON CONFLICT (serial, id) DO NOTHING`, e.Serial, e.ID, e.At.UnixNano(), data)
	return err
}

// PartEvents implements op.Parts.
func (t txn) PartEvents(serial string) ([]lifecycle.PartEvent, error) {
	return list[lifecycle.PartEvent](t.Tx, `SELECT data FROM part_events WHERE serial = ? ORDER BY at, id`, serial)
}
