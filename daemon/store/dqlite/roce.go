//go:build dqlite

package dqlite

import (
	"context"
	"database/sql"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// UpsertRoCEAssignments implements lifecycle.SiteConfigStore.
func (s *Store) UpsertRoCEAssignments(ctx context.Context, siteID string, items []lifecycle.RoCEAssignment) ([]lifecycle.RoCEAssignment, error) {
	const op = "store.UpsertRoCEAssignments"
	items = append([]lifecycle.RoCEAssignment(nil), items...)
	seen := map[[2]string]bool{}
	for i, a := range items {
		a.SiteID, a.Hostname = siteID, strings.ToLower(a.Hostname)
		if err := a.Validate(); err != nil {
			return nil, err
		}
		if a.ID == "" {
			return nil, lifecycle.Invalid(op, "id", "item %d has no id", i)
		}
		k := [2]string{a.Hostname, a.Interface}
		if seen[k] {
			return nil, lifecycle.Invalid(op, "items", "item %d repeats %s %s", i, a.Hostname, a.Interface)
		}
		seen[k] = true
		items[i] = a
	}
	out := make([]lifecycle.RoCEAssignment, 0, len(items))
	err := s.update(ctx, op, func(tx *sql.Tx) error {
		if _, err := loadSite(tx, op, siteID); err != nil {
			return err
		}
		now := s.now()
		for _, a := range items {
			var prev lifecycle.RoCEAssignment
			ok, err := get(tx, &prev, `SELECT data FROM roce_assignments WHERE site_id = ? AND hostname = ? AND interface = ?`,
				siteID, a.Hostname, a.Interface)
			if err != nil {
				return err
			}
			a.CreatedAt, a.UpdatedAt = now, now
			if ok {
				a.ID, a.CreatedAt = prev.ID, prev.CreatedAt
			}
			if err := saveRoCE(tx, a); err != nil {
				return err
			}
			out = append(out, a)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func saveRoCE(tx *sql.Tx, a lifecycle.RoCEAssignment) error {
	data, err := js(a)
	if err != nil {
		return err
	}
	_, err = tx.Exec(`INSERT INTO roce_assignments (id, site_id, hostname, interface, data) VALUES (?1, ?2, ?3, ?4, ?5)
		ON CONFLICT (id) DO UPDATE SET hostname = excluded.hostname, interface = excluded.interface, data = excluded.data`,
		a.ID, a.SiteID, a.Hostname, a.Interface, data)
	return err
}

// ListRoCEAssignments implements lifecycle.SiteConfigStore.
func (s *Store) ListRoCEAssignments(ctx context.Context, siteID, hostname string) (out []lifecycle.RoCEAssignment, err error) {
	err = s.view(ctx, "store.ListRoCEAssignments", func(tx *sql.Tx) error {
		out, err = list[lifecycle.RoCEAssignment](tx, `SELECT data FROM roce_assignments WHERE site_id = ?1 AND (?2 = '' OR hostname = ?2)`,
			siteID, strings.ToLower(hostname))
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Hostname != out[j].Hostname {
			return out[i].Hostname < out[j].Hostname
		}
		return out[i].Interface < out[j].Interface
	})
	return out, nil
}

// DeleteRoCEAssignment implements lifecycle.SiteConfigStore.
func (s *Store) DeleteRoCEAssignment(ctx context.Context, siteID, id string) error {
	const op = "store.DeleteRoCEAssignment"
	return s.update(ctx, op, func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM roce_assignments WHERE id = ? AND site_id = ?`, id, siteID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = notFound(op, "RoCE assignment", id)
			}
			return err
		}
		return nil
	})
}
