package maas

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ProbeResult is what a probe learned of a region: its version, the
// key's user, and its rack controllers (RacksErr says why they are
// missing when rackcontrollers/ could not be read).
type ProbeResult struct {
	Version  lifecycle.MaasVersion
	User     lifecycle.MaasUser
	Racks    []lifecycle.RackController
	RacksErr error
}

// Probe checks a region with cfg's key without keeping a client: it reads
// version/ (which MAAS answers without authentication, so it proves only
// that MAAS is reachable), then the key's user (which proves the key),
// then the rack controllers (seed 001 §3.5: "version + rack controller
// info"), whose failure is reported in RacksErr, not as the probe's.
// Errors: invalid for a malformed cfg, unavailable when MAAS cannot be
// reached, unauthorized or forbidden when MAAS refuses the key.
func Probe(ctx context.Context, cfg Config) (ProbeResult, error) {
	var r ProbeResult
	c, err := New(cfg)
	if err != nil {
		return r, err
	}
	if r.Version, err = c.Version(ctx); err != nil {
		return r, err
	}
	if r.User, err = c.WhoAmI(ctx); err != nil {
		return r, err
	}
	r.Racks, r.RacksErr = c.RackControllers(ctx)
	return r, nil
}
