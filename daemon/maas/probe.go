package maas

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Probe checks a region with cfg's key without keeping a client: it reads
// version/ (which MAAS answers without authentication, so it proves only
// that MAAS is reachable), then the key's user (which proves the key).
// Errors: invalid for a malformed cfg, unavailable when MAAS cannot be
// reached, unauthorized or forbidden when MAAS refuses the key.
func Probe(ctx context.Context, cfg Config) (lifecycle.MaasVersion, lifecycle.MaasUser, error) {
	c, err := New(cfg)
	if err != nil {
		return lifecycle.MaasVersion{}, lifecycle.MaasUser{}, err
	}
	v, err := c.Version(ctx)
	if err != nil {
		return lifecycle.MaasVersion{}, lifecycle.MaasUser{}, err
	}
	u, err := c.WhoAmI(ctx)
	if err != nil {
		return v, lifecycle.MaasUser{}, err
	}
	return v, u, nil
}
