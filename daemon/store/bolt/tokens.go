package bolt

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// AdminTokenTaken implements op.AdminTokens through the hash index.
func (t txn) AdminTokenTaken(id, hash string) (bool, error) {
	return t.Bucket(bTokens).Get([]byte(id)) != nil || t.Bucket(bTokenHash).Get([]byte(hash)) != nil, nil
}

// LoadAdminToken implements op.AdminTokens.
func (t txn) LoadAdminToken(id string) (lifecycle.AdminToken, bool, error) {
	var tok lifecycle.AdminToken
	ok, err := get(t.Bucket(bTokens), id, &tok)
	return tok, ok, err
}

// TokenWithHash implements op.AdminTokens.
func (t txn) TokenWithHash(hash string) (lifecycle.AdminToken, bool, error) {
	id := t.Bucket(bTokenHash).Get([]byte(hash))
	if id == nil {
		return lifecycle.AdminToken{}, false, nil
	}
	tok, _, err := t.LoadAdminToken(string(id))
	return tok, true, err
}

// SaveAdminToken implements op.AdminTokens.
func (t txn) SaveAdminToken(tok lifecycle.AdminToken, create bool) error {
	if create {
		if err := t.Bucket(bTokenHash).Put([]byte(tok.Hash), []byte(tok.ID)); err != nil {
			return err
		}
	}
	return put(t.Bucket(bTokens), []byte(tok.ID), tok)
}

// AdminTokens implements op.AdminTokens.
func (t txn) AdminTokens() ([]lifecycle.AdminToken, error) {
	out := []lifecycle.AdminToken{}
	err := t.Bucket(bTokens).ForEach(func(k, _ []byte) error {
		var tok lifecycle.AdminToken
		_, err := get(t.Bucket(bTokens), string(k), &tok)
		out = append(out, tok)
		return err
	})
	return out, err
}

// AdminTokenPage implements op.AdminTokens: the token bucket is keyed by
// id, so a page seeks to its cursor and reads limit records.
func (t txn) AdminTokenPage(after string, limit int) ([]lifecycle.AdminToken, error) {
	out := []lifecycle.AdminToken{}
	b := t.Bucket(bTokens)
	c := b.Cursor()
	for k, _ := seekAfter(c, nil, []byte(after)); k != nil && len(out) < limit; k, _ = c.Next() {
		var tok lifecycle.AdminToken
		if _, err := get(b, string(k), &tok); err != nil {
			return nil, err
		}
		out = append(out, tok)
	}
	return out, nil
}
