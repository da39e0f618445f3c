package bolt

import (
	"context"
	"sort"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
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
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		if tx.Bucket(bTokens).Get([]byte(t.ID)) != nil || tx.Bucket(bTokenHash).Get([]byte(t.Hash)) != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "token %q already exists", t.ID)
		}
		t.CreatedAt, t.RevokedAt = s.now(), nil
		if err := tx.Bucket(bTokenHash).Put([]byte(t.Hash), []byte(t.ID)); err != nil {
			return err
		}
		return put(tx.Bucket(bTokens), []byte(t.ID), t)
	})
}

// AdminTokenByHash implements lifecycle.TokenStore.
func (s *Store) AdminTokenByHash(ctx context.Context, hash string) (t lifecycle.AdminToken, err error) {
	const op = "store.AdminTokenByHash"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		id := tx.Bucket(bTokenHash).Get([]byte(hash))
		if id == nil {
			return lifecycle.Errorf(lifecycle.CodeNotFound, op, "no such token")
		}
		_, err := get(tx.Bucket(bTokens), string(id), &t)
		return err
	})
	return t, err
}

// ListAdminTokens implements lifecycle.TokenStore, oldest first.
func (s *Store) ListAdminTokens(ctx context.Context) ([]lifecycle.AdminToken, error) {
	out := []lifecycle.AdminToken{}
	err := s.view(ctx, "store.ListAdminTokens", func(tx *bbolt.Tx) error {
		return tx.Bucket(bTokens).ForEach(func(k, _ []byte) error {
			var t lifecycle.AdminToken
			_, err := get(tx.Bucket(bTokens), string(k), &t)
			out = append(out, t)
			return err
		})
	})
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, err
}

// ListAdminTokenPage implements lifecycle.TokenStore: the token bucket
// is keyed by id, so a page seeks to its cursor and reads limit records.
func (s *Store) ListAdminTokenPage(ctx context.Context, after string, limit int) ([]lifecycle.AdminToken, error) {
	out := []lifecycle.AdminToken{}
	err := s.view(ctx, "store.ListAdminTokenPage", func(tx *bbolt.Tx) error {
		b := tx.Bucket(bTokens)
		c := b.Cursor()
		for k, _ := seekAfter(c, nil, []byte(after)); k != nil && len(out) < limit; k, _ = c.Next() {
			var t lifecycle.AdminToken
			if _, err := get(b, string(k), &t); err != nil {
				return err
			}
			out = append(out, t)
		}
		return nil
	})
	return out, err
}

// RevokeAdminToken implements lifecycle.TokenStore.
func (s *Store) RevokeAdminToken(ctx context.Context, id string) (t lifecycle.AdminToken, err error) {
	const op = "store.RevokeAdminToken"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		ok, err := get(tx.Bucket(bTokens), id, &t)
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
		return put(tx.Bucket(bTokens), []byte(id), t)
	})
	return t, err
}
