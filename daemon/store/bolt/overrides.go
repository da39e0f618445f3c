package bolt

import (
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func key(parts ...string) []byte { return []byte(strings.Join(parts, "\x00")) }

func overrideKey(o lifecycle.PowerOverride) []byte {
	return key(o.SiteID, string(o.SelectorType), o.SelectorValue)
}

// OverrideTaken implements op.SiteConfig through the selector index.
func (t txn) OverrideTaken(o lifecycle.PowerOverride) (bool, error) {
	return t.Bucket(bOvrKeys).Get(overrideKey(o)) != nil || t.Bucket(bOverrides).Get([]byte(o.ID)) != nil, nil
}

// InsertOverride implements op.SiteConfig.
func (t txn) InsertOverride(o lifecycle.PowerOverride) error {
	if err := t.Bucket(bOvrKeys).Put(overrideKey(o), []byte(o.ID)); err != nil {
		return err
	}
	return put(t.Bucket(bOverrides), []byte(o.ID), o)
}

// Overrides implements op.SiteConfig.
func (t txn) Overrides(siteID string) ([]lifecycle.PowerOverride, error) {
	out := []lifecycle.PowerOverride{}
	err := t.Bucket(bOverrides).ForEach(func(k, _ []byte) error {
		var o lifecycle.PowerOverride
		if _, err := get(t.Bucket(bOverrides), string(k), &o); err != nil {
			return err
		}
		if o.SiteID == siteID {
			out = append(out, o)
		}
		return nil
	})
	return out, err
}

// DeleteOverride implements op.SiteConfig.
func (t txn) DeleteOverride(siteID, id string) (bool, error) {
	var o lifecycle.PowerOverride
	ok, err := get(t.Bucket(bOverrides), id, &o)
	if err != nil || !ok || o.SiteID != siteID {
		return false, err
	}
	if err := t.Bucket(bOvrKeys).Delete(overrideKey(o)); err != nil {
		return false, err
	}
	return true, t.Bucket(bOverrides).Delete([]byte(id))
}
