//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"sort"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// CreateAdminToken implements lifecycle.TokenStore.
func (s *Store) CreateAdminToken(ctx context.Context, t lifecycle.AdminToken) error {
	const op = "store.CreateAdminToken"
	switch {
	case t.ID == "" || t.Hash == "":
		return lifecycle.Invalid(op, "id", "a token needs an id and a hash")
	case !t.Role.Valid():
		return lifecycle.Invalid(op, "role", "role %q is not one of admin, operator, viewer", t.Role)
	}
	return s.update(ctx, op, func(tx *sql.Tx) error {
		if ok, err := exists(tx, `SELECT 1 FROM admin_tokens WHERE id = ? OR hash = ?`, t.ID, t.Hash); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "token %q already exists", t.ID)
			}
			return err
		}
		t.CreatedAt, t.RevokedAt = s.now(), nil
		data, err := js(t)
		if err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO admin_tokens (id, hash, data) VALUES (?, ?, ?)`, t.ID, t.Hash, data)
		return err
	})
}

// AdminTokenByHash implements lifecycle.TokenStore.
func (s *Store) AdminTokenByHash(ctx context.Context, hash string) (t lifecycle.AdminToken, err error) {
	const op = "store.AdminTokenByHash"
	err = s.view(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &t, `SELECT data FROM admin_tokens WHERE hash = ?`, hash)
		if err == nil && !ok {
			err = lifecycle.Errorf(lifecycle.CodeNotFound, op, "no such token")
		}
		return err
	})
	return t, err
}

// ListAdminTokens implements lifecycle.TokenStore, oldest first.
func (s *Store) ListAdminTokens(ctx context.Context) (out []lifecycle.AdminToken, err error) {
	err = s.view(ctx, "store.ListAdminTokens", func(tx *sql.Tx) error {
		out, err = list[lifecycle.AdminToken](tx, `SELECT data FROM admin_tokens`)
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// ListAdminTokenPage implements lifecycle.TokenStore: a page in id
// order through the primary key.
func (s *Store) ListAdminTokenPage(ctx context.Context, after string, limit int) (out []lifecycle.AdminToken, err error) {
	err = s.view(ctx, "store.ListAdminTokenPage", func(tx *sql.Tx) error {
		out, err = list[lifecycle.AdminToken](tx, `SELECT data FROM admin_tokens WHERE id > ? ORDER BY id LIMIT ?`, after, max(limit, 0))
		return err
	})
	return out, err
}

// RevokeAdminToken implements lifecycle.TokenStore.
func (s *Store) RevokeAdminToken(ctx context.Context, id string) (t lifecycle.AdminToken, err error) {
	const op = "store.RevokeAdminToken"
	err = s.update(ctx, op, func(tx *sql.Tx) error {
		ok, err := get(tx, &t, `SELECT data FROM admin_tokens WHERE id = ?`, id)
		if err != nil || !ok {
			if err == nil {
				err = notFound(op, "token", id)
			}
			return err
		}
		if t.RevokedAt == nil {
			now := s.now()
			t.RevokedAt = &now
		}
		data, err := js(t)
		if err != nil {
			return err
		}
		_, err = tx.Exec(`UPDATE admin_tokens SET data = ? WHERE id = ?`, data, id)
		return err
	})
	return t, err
}
