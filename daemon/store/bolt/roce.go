package bolt

import (
	"context"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

func roceKey(a lifecycle.RoCEAssignment) []byte {
	return key(a.SiteID, strings.ToLower(a.Hostname), a.Interface)
}

// UpsertRoCEAssignments implements lifecycle.SiteConfigStore.
func (s *Store) UpsertRoCEAssignments(ctx context.Context, siteID string, items []lifecycle.RoCEAssignment) ([]lifecycle.RoCEAssignment, error) {
	const op = "store.UpsertRoCEAssignments"
	items = append([]lifecycle.RoCEAssignment(nil), items...)
	seen := map[string]bool{}
	for i, a := range items {
		a.SiteID, a.Hostname = siteID, strings.ToLower(a.Hostname)
		if err := a.Validate(); err != nil {
			return nil, err
		}
		if a.ID == "" {
			return nil, lifecycle.Invalid(op, "id", "item %d has no id", i)
		}
		if seen[string(roceKey(a))] {
			return nil, lifecycle.Invalid(op, "items", "item %d repeats %s %s", i, a.Hostname, a.Interface)
		}
		seen[string(roceKey(a))] = true
		items[i] = a
	}
	out := make([]lifecycle.RoCEAssignment, 0, len(items))
	err := s.update(ctx, op, func(tx *bbolt.Tx) error {
		if _, err := loadSite(tx, op, siteID); err != nil {
			return err
		}
		now := s.now()
		for _, a := range items {
			if old := tx.Bucket(bRoCEKeys).Get(roceKey(a)); old != nil {
				var prev lifecycle.RoCEAssignment
				if _, err := get(tx.Bucket(bRoCE), string(old), &prev); err != nil {
					return err
				}
				a.ID, a.CreatedAt = prev.ID, prev.CreatedAt
			} else {
				a.CreatedAt = now
			}
			a.UpdatedAt = now
			if err := tx.Bucket(bRoCEKeys).Put(roceKey(a), []byte(a.ID)); err != nil {
				return err
			}
			if err := put(tx.Bucket(bRoCE), []byte(a.ID), a); err != nil {
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

// ListRoCEAssignments implements lifecycle.SiteConfigStore.
func (s *Store) ListRoCEAssignments(ctx context.Context, siteID, hostname string) ([]lifecycle.RoCEAssignment, error) {
	out := []lifecycle.RoCEAssignment{}
	hostname = strings.ToLower(hostname)
	err := s.view(ctx, "store.ListRoCEAssignments", func(tx *bbolt.Tx) error {
		return tx.Bucket(bRoCE).ForEach(func(k, _ []byte) error {
			var a lifecycle.RoCEAssignment
			if _, err := get(tx.Bucket(bRoCE), string(k), &a); err != nil {
				return err
			}
			if a.SiteID == siteID && (hostname == "" || a.Hostname == hostname) {
				out = append(out, a)
			}
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Hostname != out[j].Hostname {
			return out[i].Hostname < out[j].Hostname
		}
		return out[i].Interface < out[j].Interface
	})
	return out, err
}

// DeleteRoCEAssignment implements lifecycle.SiteConfigStore.
func (s *Store) DeleteRoCEAssignment(ctx context.Context, siteID, id string) error {
	const op = "store.DeleteRoCEAssignment"
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		var a lifecycle.RoCEAssignment
		ok, err := get(tx.Bucket(bRoCE), id, &a)
		if err != nil {
			return err
		}
		if !ok || a.SiteID != siteID {
			return notFound(op, "RoCE assignment", id)
		}
		if err := tx.Bucket(bRoCEKeys).Delete(roceKey(a)); err != nil {
			return err
		}
		return tx.Bucket(bRoCE).Delete([]byte(id))
	})
}
