//go:build dqlite

package dqlite

import (
	"database/sql"
	"errors"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LoadSubmission implements op.Submissions.
func (t txn) LoadSubmission(key string) (string, lifecycle.SubmissionResult, bool, error) {
	var hash, data string
	var res lifecycle.SubmissionResult
	err := t.QueryRow(`SELECT request_hash, data FROM submissions WHERE idem_key = ?`, key).Scan(&hash, &data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", res, false, nil
	case err != nil:
		return "", res, false, err
	}
	return hash, res, true, decode(data, &res)
}

// SaveSubmission implements op.Submissions.
func (t txn) SaveSubmission(key, hash string, res lifecycle.SubmissionResult) error {
	data, err := js(res)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO submissions (idem_key, request_hash, data) VALUES (?, ?, ?)`, key, hash, data)
	return err
}

// LoadBatch implements op.Submissions.
func (t txn) LoadBatch(id string) (lifecycle.Batch, bool, error) {
	var b lifecycle.Batch
	ok, err := get(t.Tx, &b, `SELECT data FROM batches WHERE id = ?`, id)
	return b, ok, err
}

// BatchExists implements op.Submissions.
func (t txn) BatchExists(id string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM batches WHERE id = ?`, id)
}

// InsertBatch implements op.Submissions.
func (t txn) InsertBatch(b lifecycle.Batch) error {
	data, err := js(b)
	if err != nil {
		return err
	}
	_, err = t.Exec(`INSERT INTO batches (id, site_id, data) VALUES (?, ?, ?)`, b.ID, b.SiteID, data)
	return err
}
