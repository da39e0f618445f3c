package op

import (
	"context"
	"sort"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// AdminTokens are the admin API's tokens by id, their hashes unique.
type AdminTokens interface {
	// AdminTokenTaken says whether a token has the id or the hash.
	AdminTokenTaken(id, hash string) (bool, error)
	// LoadAdminToken returns the token; false when there is none.
	LoadAdminToken(id string) (lifecycle.AdminToken, bool, error)
	// TokenWithHash returns the token with the hash; false when none has.
	TokenWithHash(hash string) (lifecycle.AdminToken, bool, error)
	// SaveAdminToken writes t, a new token when create.
	SaveAdminToken(t lifecycle.AdminToken, create bool) error
	// AdminTokens returns every token, in any order.
	AdminTokens() ([]lifecycle.AdminToken, error)
	// AdminTokenPage returns up to limit tokens after the id, in id order.
	AdminTokenPage(after string, limit int) ([]lifecycle.AdminToken, error)
}

// CreateAdminToken implements lifecycle.TokenStore.
func (s Store) CreateAdminToken(ctx context.Context, t lifecycle.AdminToken) error {
	const op = "store.CreateAdminToken"
	switch {
	case t.ID == "" || t.Hash == "":
		return lifecycle.Invalid(op, "id", "a token needs an id and a hash")
	case !t.Role.Valid():
		return lifecycle.Invalid(op, "role", "role %q is not one of admin, operator, viewer", t.Role)
	}
	return s.b.Update(ctx, op, func(tx Tx) error {
		if ok, err := tx.AdminTokenTaken(t.ID, t.Hash); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "token %q already exists", t.ID)
			}
			return err
		}
		t.CreatedAt, t.RevokedAt = s.b.Now(), nil
		return tx.SaveAdminToken(t, true)
	})
}

// AdminTokenByHash implements lifecycle.TokenStore.
func (s Store) AdminTokenByHash(ctx context.Context, hash string) (t lifecycle.AdminToken, err error) {
	const op = "store.AdminTokenByHash"
	err = s.b.View(ctx, op, func(tx Tx) error {
		var ok bool
		t, ok, err = tx.TokenWithHash(hash)
		if err == nil && !ok {
			err = lifecycle.Errorf(lifecycle.CodeNotFound, op, "no such token")
		}
		return err
	})
	return t, err
}

// ListAdminTokens implements lifecycle.TokenStore, oldest first.
func (s Store) ListAdminTokens(ctx context.Context) (out []lifecycle.AdminToken, err error) {
	err = s.b.View(ctx, "store.ListAdminTokens", func(tx Tx) error {
		out, err = tx.AdminTokens()
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

// ListAdminTokenPage implements lifecycle.TokenStore: a page in id order.
func (s Store) ListAdminTokenPage(ctx context.Context, after string, limit int) (out []lifecycle.AdminToken, err error) {
	err = s.b.View(ctx, "store.ListAdminTokenPage", func(tx Tx) error {
		out, err = tx.AdminTokenPage(after, max(limit, 0))
		return err
	})
	return out, err
}

// RevokeAdminToken implements lifecycle.TokenStore.
func (s Store) RevokeAdminToken(ctx context.Context, id string) (t lifecycle.AdminToken, err error) {
	const op = "store.RevokeAdminToken"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		var ok bool
		if t, ok, err = tx.LoadAdminToken(id); err != nil || !ok {
			if err == nil {
				err = notFound(op, "token", id)
			}
			return err
		}
		if t.RevokedAt == nil {
			now := s.b.Now()
			t.RevokedAt = &now
		}
		return tx.SaveAdminToken(t, false)
	})
	return t, err
}
