//go:build dqlite

package dqlite

import (
	"database/sql"
	"errors"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LoadEnrollToken implements op.Enrollment.
func (t txn) LoadEnrollToken(hash string) (lifecycle.EnrollmentToken, bool, error) {
	var tok lifecycle.EnrollmentToken
	ok, err := get(t.Tx, &tok, `SELECT data FROM enrollment_tokens WHERE hash = ?`, hash)
	return tok, ok, err
}

// EnrollTokenExists implements op.Enrollment.
func (t txn) EnrollTokenExists(hash string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM enrollment_tokens WHERE hash = ?`, hash)
}

// NewestEnrollToken implements op.Enrollment.
func (t txn) NewestEnrollToken(nodeID string) (lifecycle.EnrollmentToken, bool, error) {
	var tok lifecycle.EnrollmentToken
	ok, err := get(t.Tx, &tok, `SELECT t.data FROM enrollment_newest n JOIN enrollment_tokens t ON t.hash = n.hash WHERE n.node_id = ?`, nodeID)
	return tok, ok, err
}

// NewestEnrollHash implements op.Enrollment.
func (t txn) NewestEnrollHash(nodeID string) (string, error) {
	var h string
	err := t.QueryRow(`SELECT hash FROM enrollment_newest WHERE node_id = ?`, nodeID).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return h, err
}

// SaveEnrollToken implements op.Enrollment.
func (t txn) SaveEnrollToken(tok lifecycle.EnrollmentToken, create, newest bool) error {
	if err := saveEnroll(t.Tx, tok, create); err != nil || !newest {
		return err
	}
	_, err := t.Exec(`INSERT INTO enrollment_newest (node_id, hash) VALUES (?1, ?2)
		ON CONFLICT (node_id) DO UPDATE SET hash = excluded.hash`, tok.NodeID, tok.Hash)
	return err
}

func saveEnroll(tx *sql.Tx, t lifecycle.EnrollmentToken, create bool) error {
	data, err := js(t)
	if err != nil {
		return err
	}
	q := `UPDATE enrollment_tokens SET data = ?3 WHERE hash = ?1 AND node_id = ?2`
	if create {
		q = `INSERT INTO enrollment_tokens (hash, node_id, data) VALUES (?1, ?2, ?3)`
	}
	_, err = tx.Exec(q, t.Hash, t.NodeID, data)
	return err
}
