package ipmi

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// BMCs hands out a BMC by its target: Client, and the simulated fleets
// of the tests and dev mode.
type BMCs interface {
	BMC(t Target) BMC
}

// PXE is the PXE discovery path's direct BMC access (the workflow's Power
// port) over BMCs.
type PXE struct{ BMCs BMCs }

// PXEBootCycle sets a one-time PXE boot and power-cycles the machine (a
// machine that is off is powered on). The password leaves the login only
// for the BMC session. Nothing is sent once ctx's site lease has lapsed
// (lifecycle.CheckLease).
func (p PXE) PXEBootCycle(ctx context.Context, b lifecycle.BMCLogin) error {
	if err := lifecycle.CheckLease(ctx); err != nil {
		return err
	}
	bmc := p.BMCs.BMC(Target{Host: b.Address, User: b.User, Pass: b.Pass.Reveal()})
	if err := bmc.SetBootDevice(ctx, BootPXE, false); err != nil {
		return err
	}
	if err := lifecycle.CheckLease(ctx); err != nil {
		return err
	}
	return bmc.SetPower(ctx, ActionCycle)
}
