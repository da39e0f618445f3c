//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"sort"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

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
	err := s.update(ctx, op, func(tx *sql.Tx) error {
		if _, err := loadSite(tx, op, o.SiteID); err != nil {
			return err
		}
		ok, err := exists(tx, `SELECT 1 FROM power_overrides WHERE id = ?1
			OR (site_id = ?2 AND selector_type = ?3 AND selector_value = ?4)`, o.ID, o.SiteID, string(o.SelectorType), o.SelectorValue)
		if err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "site already has an override for %s %s", o.SelectorType, o.SelectorValue)
			}
			return err
		}
		now := s.now()
		o.CreatedAt, o.UpdatedAt = now, now
		data, err := js(o)
		if err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO power_overrides (id, site_id, selector_type, selector_value, data) VALUES (?, ?, ?, ?, ?)`,
			o.ID, o.SiteID, string(o.SelectorType), o.SelectorValue, data)
		return err
	})
	if err != nil {
		return lifecycle.PowerOverride{}, err
	}
	return o, nil
}

// ListPowerOverrides implements lifecycle.SiteConfigStore.
func (s *Store) ListPowerOverrides(ctx context.Context, siteID string) (out []lifecycle.PowerOverride, err error) {
	err = s.view(ctx, "store.ListPowerOverrides", func(tx *sql.Tx) error {
		out, err = list[lifecycle.PowerOverride](tx, `SELECT data FROM power_overrides WHERE site_id = ?`, siteID)
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].SelectorType != out[j].SelectorType {
			return out[i].SelectorType < out[j].SelectorType
		}
		return out[i].SelectorValue < out[j].SelectorValue
	})
	return out, nil
}

// DeletePowerOverride implements lifecycle.SiteConfigStore.
func (s *Store) DeletePowerOverride(ctx context.Context, siteID, id string) error {
	const op = "store.DeletePowerOverride"
	return s.update(ctx, op, func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM power_overrides WHERE id = ? AND site_id = ?`, id, siteID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = notFound(op, "power override", id)
			}
			return err
		}
		return nil
	})
}
