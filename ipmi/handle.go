package ipmi

import (
	"context"
	"errors"

	"github.com/bmc-toolbox/bmclib/v2"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// handle is a Client's BMC for one target.
type handle struct {
	c *Client
	t Target
}

var errNotConfirmed = errors.New("the BMC did not confirm the change")

// PowerState reads the power state, normalised to on, off or unknown.
func (h *handle) PowerState(ctx context.Context) (PowerState, error) {
	var st PowerState
	err := h.c.do(ctx, h.t, "power_state", func(ctx context.Context, cl *bmclib.Client) error {
		raw, err := cl.GetPowerState(ctx)
		st = NormalizePowerState(raw)
		return err
	})
	return st, err
}

// SetPower powers the machine on or off, or cycles it. A cycle of a machine
// that is off powers it on, since many BMCs refuse to cycle from off.
func (h *handle) SetPower(ctx context.Context, a PowerAction) error {
	if a != ActionOn && a != ActionOff && a != ActionCycle {
		return lifecycle.Invalid("ipmi.SetPower", "action", "unknown power action %q", a)
	}
	return h.c.do(ctx, h.t, "power_"+string(a), func(ctx context.Context, cl *bmclib.Client) error {
		state := string(a)
		if a == ActionCycle {
			raw, err := cl.GetPowerState(ctx)
			if err != nil {
				return err
			}
			if NormalizePowerState(raw) == PowerOff {
				state = string(ActionOn)
			}
		}
		return confirmed(cl.SetPowerState(ctx, state))
	})
}

// SetBootDevice selects the boot device for the next boot, or for every
// boot when persistent.
func (h *handle) SetBootDevice(ctx context.Context, dev BootDevice, persistent bool) error {
	if dev != BootPXE && dev != BootDisk {
		return lifecycle.Invalid("ipmi.SetBootDevice", "device", "unknown boot device %q", dev)
	}
	return h.c.do(ctx, h.t, "boot_"+string(dev), func(ctx context.Context, cl *bmclib.Client) error {
		return confirmed(cl.SetBootDevice(ctx, string(dev), persistent, h.c.cfg.EFIBoot))
	})
}

func confirmed(ok bool, err error) error {
	if err == nil && !ok {
		return errNotConfirmed
	}
	return err
}
