package op

import (
	"context"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// UpsertRoCEAssignments implements lifecycle.SiteConfigStore.
func (s Store) UpsertRoCEAssignments(ctx context.Context, siteID string, items []lifecycle.RoCEAssignment) ([]lifecycle.RoCEAssignment, error) {
	const op = "store.UpsertRoCEAssignments"
	items, err := roceItems(op, siteID, items)
	if err != nil {
		return nil, err
	}
	out := make([]lifecycle.RoCEAssignment, 0, len(items))
	err = s.b.Update(ctx, op, func(tx Tx) error {
		if _, err := LoadSite(tx, op, siteID); err != nil {
			return err
		}
		now := s.b.Now()
		for _, a := range items {
			prev, ok, err := tx.RoCEOn(siteID, a.Hostname, a.Interface)
			if err != nil {
				return err
			}
			a.CreatedAt, a.UpdatedAt = now, now
			if ok {
				a.ID, a.CreatedAt = prev.ID, prev.CreatedAt
			}
			if err := tx.SaveRoCE(a); err != nil {
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

// roceItems returns a copy of items on the site, hostnames in lower case,
// each checked, none repeating a host's interface.
func roceItems(op, siteID string, items []lifecycle.RoCEAssignment) ([]lifecycle.RoCEAssignment, error) {
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
	return items, nil
}

// ListRoCEAssignments implements lifecycle.SiteConfigStore.
func (s Store) ListRoCEAssignments(ctx context.Context, siteID, hostname string) (out []lifecycle.RoCEAssignment, err error) {
	err = s.b.View(ctx, "store.ListRoCEAssignments", func(tx Tx) error {
		out, err = tx.RoCEAssignments(siteID, strings.ToLower(hostname))
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
func (s Store) DeleteRoCEAssignment(ctx context.Context, siteID, id string) error {
	const op = "store.DeleteRoCEAssignment"
	return s.b.Update(ctx, op, func(tx Tx) error {
		ok, err := tx.DeleteRoCE(siteID, id)
		if err == nil && !ok {
			err = notFound(op, "RoCE assignment", id)
		}
		return err
	})
}
