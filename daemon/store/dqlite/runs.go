//go:build dqlite

package dqlite

import (
	"database/sql"
	"errors"
	"slices"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/op"
)

// LoadRun implements op.Runs. In a shared transaction it answers from
// the memo when the run is there (prefetch, or this transaction's own
// SaveRun), and otherwise reads the run's last journal sequence number
// in the same request, into the memo.
func (t txn) LoadRun(id string) (lifecycle.Run, bool, error) {
	var r lifecycle.Run
	if t.memo == nil {
		ok, err := get(t.Tx, &r, `SELECT data FROM runs WHERE id = ?`, id)
		return r, ok, err
	}
	data, ok := t.memo.runs[id]
	if !ok {
		var last uint64
		err := t.QueryRow(`SELECT data, (SELECT COALESCE(MAX(seq), 0) FROM run_events WHERE run_id = ?1)
			FROM runs WHERE id = ?1`, id).Scan(&data, &last)
		if errors.Is(err, sql.ErrNoRows) {
			return r, false, nil
		}
		if err != nil {
			return r, false, err
		}
		t.memo.runs[id], t.memo.seqs[id] = data, last
	}
	if err := decode(data, &r); err != nil {
		return r, false, err
	}
	t.memo.cols[id] = runColumns(r)
	return r, true, nil
}

// RunExists implements op.Runs.
func (t txn) RunExists(id string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM runs WHERE id = ?`, id)
}

// SaveRun implements op.Runs; in a shared transaction the memo keeps
// what it wrote.
func (t txn) SaveRun(r lifecycle.Run, create bool) error {
	if t.memo == nil {
		return saveRun(t.Tx, r, create)
	}
	cols := runColumns(r)
	var data string
	var err error
	if old, ok := t.memo.cols[r.ID]; ok && !create && slices.Equal(old, cols) {
		data, err = saveRecordOnly(t.Tx, r)
	} else {
		data, err = saveRunData(t.Tx, r, create)
	}
	if err != nil {
		return err
	}
	t.memo.runs[r.ID], t.memo.cols[r.ID] = data, cols
	if create {
		t.memo.seqs[r.ID] = 0
	}
	return nil
}

// saveRecordOnly writes r's record and none of its list columns, which
// the caller knows are unchanged: the runs' list indexes are not touched.
func saveRecordOnly(tx *sql.Tx, r lifecycle.Run) (string, error) {
	data, err := js(r)
	if err != nil {
		return "", err
	}
	_, err = tx.Exec(`UPDATE runs SET data = ?3 WHERE id = ?1 AND site_id = ?2`, r.ID, r.SiteID, data)
	return data, err
}

func loadRun(tx *sql.Tx, name, id string) (lifecycle.Run, error) {
	return op.LoadRun(txn{Tx: tx}, name, id)
}

// saveRun writes r with the columns its lists select and order by.
func saveRun(tx *sql.Tx, r lifecycle.Run, create bool) error {
	_, err := saveRunData(tx, r, create)
	return err
}

// saveRunData is saveRun, returning the record it wrote.
func saveRunData(tx *sql.Tx, r lifecycle.Run, create bool) (string, error) {
	data, err := js(r)
	if err != nil {
		return "", err
	}
	q := `UPDATE runs SET data = ?3, kind = ?4, status = ?5, node_id = ?6, batch_id = ?7, requested_at = ?8
		WHERE id = ?1 AND site_id = ?2`
	if create {
		q = `INSERT INTO runs (id, site_id, data, kind, status, node_id, batch_id, requested_at)
			VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`
	}
	_, err = tx.Exec(q, append([]any{r.ID, r.SiteID, data}, runColumns(r)...)...)
	return data, err
}
