//go:build dqlite

package dqlite

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// AdminTokenTaken implements op.AdminTokens.
func (t txn) AdminTokenTaken(id, hash string) (bool, error) {
	return exists(t.Tx, `SELECT 1 FROM admin_tokens WHERE id = ? OR hash = ?`, id, hash)
}

// LoadAdminToken implements op.AdminTokens.
func (t txn) LoadAdminToken(id string) (lifecycle.AdminToken, bool, error) {
	var tok lifecycle.AdminToken
	ok, err := get(t.Tx, &tok, `SELECT data FROM admin_tokens WHERE id = ?`, id)
	return tok, ok, err
}

// TokenWithHash implements op.AdminTokens.
func (t txn) TokenWithHash(hash string) (lifecycle.AdminToken, bool, error) {
	var tok lifecycle.AdminToken
	ok, err := get(t.Tx, &tok, `SELECT data FROM admin_tokens WHERE hash = ?`, hash)
	return tok, ok, err
}

// SaveAdminToken implements op.AdminTokens.
func (t txn) SaveAdminToken(tok lifecycle.AdminToken, create bool) error {
	data, err := js(tok)
	if err != nil {
		return err
	}
	q := `UPDATE admin_tokens SET data = ?3 WHERE id = ?1`
	if create {
		q = `INSERT INTO admin_tokens (id, hash, data) VALUES (?1, ?2, ?3)`
	}
	_, err = t.Exec(q, tok.ID, tok.Hash, data)
	return err
}

// AdminTokens implements op.AdminTokens.
func (t txn) AdminTokens() ([]lifecycle.AdminToken, error) {
	return list[lifecycle.AdminToken](t.Tx, `SELECT data FROM admin_tokens`)
}

// AdminTokenPage implements op.AdminTokens through the primary key.
func (t txn) AdminTokenPage(after string, limit int) ([]lifecycle.AdminToken, error) {
	return list[lifecycle.AdminToken](t.Tx, `SELECT data FROM admin_tokens WHERE id > ? ORDER BY id LIMIT ?`, after, limit)
}
