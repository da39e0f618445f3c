package op

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// Sites are the sites and their configuration.
type Sites interface {
	// LoadSite returns the site; false when there is none.
	LoadSite(id string) (lifecycle.Site, bool, error)
}

func loadSite(tx Sites, op, id string) (lifecycle.Site, error) {
	site, ok, err := tx.LoadSite(id)
	if err == nil && !ok {
		err = notFound(op, "site", id)
	}
	return site, err
}
