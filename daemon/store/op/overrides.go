package op

import (
	"context"
	"sort"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// SiteConfig are each site's power overrides and RoCE assignments.
type SiteConfig interface {
	// OverrideTaken says whether an override has o's id, or o's site has
	// one for o's selector.
	OverrideTaken(o lifecycle.PowerOverride) (bool, error)
	// InsertOverride writes a new override.
	InsertOverride(o lifecycle.PowerOverride) error
	// Overrides returns the site's overrides, in any order.
	Overrides(siteID string) ([]lifecycle.PowerOverride, error)
	// DeleteOverride removes the site's override; false when the site has
	// none with the id.
	DeleteOverride(siteID, id string) (bool, error)
	// RoCEOn returns the site's assignment for the hostname (lower case)
	// and interface; false when there is none.
	RoCEOn(siteID, hostname, iface string) (lifecycle.RoCEAssignment, bool, error)
	// SaveRoCE writes a.
	SaveRoCE(a lifecycle.RoCEAssignment) error
	// RoCEAssignments returns the site's assignments for the hostname
	// (lower case; "": every host), in any order.
	RoCEAssignments(siteID, hostname string) ([]lifecycle.RoCEAssignment, error)
	// DeleteRoCE removes the site's assignment; false when the site has
	// none with the id.
	DeleteRoCE(siteID, id string) (bool, error)
}

// CreatePowerOverride implements lifecycle.SiteConfigStore.
func (s Store) CreatePowerOverride(ctx context.Context, o lifecycle.PowerOverride) (lifecycle.PowerOverride, error) {
	const op = "store.CreatePowerOverride"
	o = o.Normalize()
	if o.ID == "" {
		return o, lifecycle.Invalid(op, "id", "an override needs an id")
	}
	if err := o.Validate(); err != nil {
		return lifecycle.PowerOverride{}, err
	}
	err := s.b.Update(ctx, op, func(tx Tx) error {
		if _, err := LoadSite(tx, op, o.SiteID); err != nil {
			return err
		}
		if ok, err := tx.OverrideTaken(o); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "site already has an override for %s %s", o.SelectorType, o.SelectorValue)
			}
			return err
		}
		now := s.b.Now()
		o.CreatedAt, o.UpdatedAt = now, now
		return tx.InsertOverride(o)
	})
	if err != nil {
		return lifecycle.PowerOverride{}, err
	}
	return o, nil
}

// ListPowerOverrides implements lifecycle.SiteConfigStore.
func (s Store) ListPowerOverrides(ctx context.Context, siteID string) (out []lifecycle.PowerOverride, err error) {
	err = s.b.View(ctx, "store.ListPowerOverrides", func(tx Tx) error {
		out, err = tx.Overrides(siteID)
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
func (s Store) DeletePowerOverride(ctx context.Context, siteID, id string) error {
	const op = "store.DeletePowerOverride"
	return s.b.Update(ctx, op, func(tx Tx) error {
		ok, err := tx.DeleteOverride(siteID, id)
		if err == nil && !ok {
			err = notFound(op, "power override", id)
		}
		return err
	})
}
