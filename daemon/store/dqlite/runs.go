//go:build dqlite

package dqlite

import (
	"database/sql"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// LoadRun implements op.Runs.
func (t txn) LoadRun(id string) (lifecycle.Run, bool, error) {
	var r lifecycle.Run
	ok, err := get(t.Tx, &r, `SELECT data FROM runs WHERE id = ?`, id)
	return r, ok, err
}

// RunExists implements op.Runs.
func (t txn) RunExists(id string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM runs WHERE id = ?`, id)
}

// SaveRun implements op.Runs.
func (t txn) SaveRun(r lifecycle.Run, create bool) error { return saveRun(t.Tx, r, create) }

func loadRun(tx *sql.Tx, name, id string) (lifecycle.Run, error) {
	return op.LoadRun(txn{Tx: tx}, name, id)
}

// saveRun writes r with the columns its lists select and order by.
func saveRun(tx *sql.Tx, r lifecycle.Run, create bool) error {
	data, err := js(r)
	if err != nil {
		return err
	}
	q := `UPDATE runs SET data = ?3, kind = ?4, status = ?5, node_id = ?6, batch_id = ?7, requested_at = ?8
		WHERE id = ?1 AND site_id = ?2`
	if create {
		q = `INSERT INTO runs (id, site_id, data, kind, status, node_id, batch_id, requested_at)
			VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`
	}
	_, err = tx.Exec(q, append([]any{r.ID, r.SiteID, data}, runColumns(r)...)...)
	return err
}
