package bridge

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
	"github.com/gpuaas/maas-sidecar/daemon/workflow"
	"github.com/gpuaas/maas-sidecar/ipmi"
)

// BMCs is what Power needs of the bmclib adapter or the simulated fleet:
// both ipmi.Client and bmcsim.Fleet have this method.
type BMCs interface {
	BMC(t ipmi.Target) ipmi.BMC
}

// Power is workflow.Power over the bmclib adapter.
type Power struct{ BMCs BMCs }

var _ workflow.Power = Power{}

// PXEBootCycle sets a one-time PXE boot and power-cycles the machine (a
// machine that is off is powered on).
func (p Power) PXEBootCycle(ctx context.Context, b workflow.BMCLogin) error {
	bmc := p.BMCs.BMC(ipmi.Target{Host: b.Address, User: b.User, Pass: b.Pass})
	if err := bmc.SetBootDevice(ctx, ipmi.BootPXE, false); err != nil {
		return err
	}
	return bmc.SetPower(ctx, ipmi.ActionCycle)
}

// NoPower answers every request with site_capability_missing: direct BMC
// access is not available on this host (no ipmitool).
type NoPower struct{ Why string }

// PXEBootCycle implements workflow.Power.
func (n NoPower) PXEBootCycle(context.Context, workflow.BMCLogin) error {
	return runner.Classed(lifecycle.FailSiteCapabilityMissing,
		lifecycle.Errorf(lifecycle.CodeConflict, "power", "direct BMC access is unavailable: %s", n.Why))
}
