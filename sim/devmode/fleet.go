package devmode

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/ipmi"
	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// Fleet gives the daemon's direct BMC access (the PXE discovery path)
// the simulated hosts' BMCs, the same ones MAAS powers.
type Fleet map[string]maassim.BMC

// BMC returns the BMC at t.Host (an unreachable one if there is none).
func (f Fleet) BMC(t ipmi.Target) ipmi.BMC { return simBMC{b: f[t.Host], addr: t.Host} }

type simBMC struct {
	b    maassim.BMC
	addr string
}

func (s simBMC) missing() error {
	return lifecycle.Errorf(lifecycle.CodeUnavailable, "devmode.bmc", "no simulated BMC answers at %s", s.addr)
}

func (s simBMC) PowerState(ctx context.Context) (ipmi.PowerState, error) {
	if s.b == nil {
		return ipmi.PowerUnknown, s.missing()
	}
	on, err := s.b.PowerState(ctx)
	if on {
		return ipmi.PowerOn, err
	}
	return ipmi.PowerOff, err
}

func (s simBMC) SetPower(ctx context.Context, a ipmi.PowerAction) error {
	if s.b == nil {
		return s.missing()
	}
	if a == ipmi.ActionCycle {
		if err := s.b.SetPower(ctx, false); err != nil {
			return err
		}
	}
	return s.b.SetPower(ctx, a != ipmi.ActionOff)
}

func (s simBMC) SetBootDevice(ctx context.Context, d ipmi.BootDevice, _ bool) error {
	if s.b == nil {
		return s.missing()
	}
	return s.b.SetBootDevice(ctx, string(d))
}
