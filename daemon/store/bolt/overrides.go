package bolt

import (
	"context"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

func key(parts ...string) []byte { return []byte(strings.Join(parts, "\x00")) }

// CreatePowerOverride implements lifecycle.SiteConfigStore.
func (s *Store) CreatePowerOverride(ctx context.Context, o lifecycle.PowerOverride) (lifecycle.PowerOverride, error) {
	const op = "store.CreatePowerOverride"
	o = o.Normalize()
	if o.ID == "" {
		return o, lifecycle.Invalid(op, "id", "an override needs an id")
	}
	if err := o.Validate(); err != nil {
		return lifecycle.PowerOverride{}, err
	}
	err := s.update(ctx, op, func(tx *bbolt.Tx) error {
		if _, err := loadSite(tx, op, o.SiteID); err != nil {
			return err
		}
		k := key(o.SiteID, string(o.SelectorType), o.SelectorValue)
		if tx.Bucket(bOvrKeys).Get(k) != nil || tx.Bucket(bOverrides).Get([]byte(o.ID)) != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "site already has an override for %s %s", o.SelectorType, o.SelectorValue)
		}
		now := s.now()
		o.CreatedAt, o.UpdatedAt = now, now
		if err := tx.Bucket(bOvrKeys).Put(k, []byte(o.ID)); err != nil {
			return err
		}
		return put(tx.Bucket(bOverrides), []byte(o.ID), o)
	})
	if err != nil {
		return lifecycle.PowerOverride{}, err
	}
	return o, nil
}

// ListPowerOverrides implements lifecycle.SiteConfigStore.
func (s *Store) ListPowerOverrides(ctx context.Context, siteID string) ([]lifecycle.PowerOverride, error) {
	out := []lifecycle.PowerOverride{}
	err := s.view(ctx, "store.ListPowerOverrides", func(tx *bbolt.Tx) error {
		return tx.Bucket(bOverrides).ForEach(func(k, _ []byte) error {
			var o lifecycle.PowerOverride
			if _, err := get(tx.Bucket(bOverrides), string(k), &o); err != nil {
				return err
			}
			if o.SiteID == siteID {
				out = append(out, o)
			}
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].SelectorType != out[j].SelectorType {
			return out[i].SelectorType < out[j].SelectorType
		}
		return out[i].SelectorValue < out[j].SelectorValue
	})
	return out, err
}

// DeletePowerOverride implements lifecycle.SiteConfigStore.
func (s *Store) DeletePowerOverride(ctx context.Context, siteID, id string) error {
	const op = "store.DeletePowerOverride"
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		var o lifecycle.PowerOverride
		ok, err := get(tx.Bucket(bOverrides), id, &o)
		if err != nil {
			return err
		}
		if !ok || o.SiteID != siteID {
			return notFound(op, "power override", id)
		}
		if err := tx.Bucket(bOvrKeys).Delete(key(o.SiteID, string(o.SelectorType), o.SelectorValue)); err != nil {
			return err
		}
		return tx.Bucket(bOverrides).Delete([]byte(id))
	})
}
