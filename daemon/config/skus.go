package config

import (
	"errors"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Catalog returns the SKU catalog of the skus key. It fails only where
// Validate does.
func (c Config) Catalog() (lifecycle.Catalog, error) {
	cat, err := lifecycle.NewCatalog(c.SKUs)
	var e *lifecycle.Error
	if errors.As(err, &e) {
		return cat, invalid(e.Field, "%s", e.Msg)
	}
	return cat, err
}

// validateSKUs checks the skus key, naming the entry (skus[2].gpus).
func (c Config) validateSKUs() error {
	_, err := c.Catalog()
	return err
}
