package workflow

import (
	"context"
	"fmt"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// assertSyncInterval sets MAAS's hardware_sync_interval to the site
// policy's when it differs (seed 001 §9.1 step 1). MAAS applies it to the
// timer it installs at the next deploy and to machines that get hardware
// sync enabled without a sync_interval; a deployed machine keeps the
// sync_interval it was given, which the details name when it differs.
func assertSyncInterval(ctx context.Context, s session, c *runner.Context, m lifecycle.Machine) error {
	want, err := time.ParseDuration(c.Policy.HardwareSyncInterval)
	if err != nil {
		return runner.Classed(lifecycle.FailSiteCapabilityMissing, lifecycle.Invalid("workflow", "hardware_sync_interval", "%v", err))
	}
	got, err := s.hwsync.HardwareSyncInterval(ctx)
	if err != nil {
		return settingsErr(err)
	}
	if got != want {
		if err := s.hwsync.SetHardwareSyncInterval(ctx, want); err != nil {
			return settingsErr(err)
		}
		c.Detail("hardware_sync_interval", fmt.Sprintf("set to %s in MAAS (it had %s)", want, got))
	} else {
		c.Detail("hardware_sync_interval", want.String())
	}
	if m.SyncInterval != 0 && m.SyncInterval != want {
		c.Detail("machine_sync_interval", fmt.Sprintf("%s until the machine is deployed again", m.SyncInterval))
	}
	return nil
}

// assertHWSyncEnabled turns enable_hw_sync back on when MAAS shows it off
// (seed 001 §9.1 step 2): MAAS ignores the host's sync signals while it is
// off. A repair asks for a fresh sync cycle afterwards.
func assertHWSyncEnabled(ctx context.Context, s session, c *runner.Context, m lifecycle.Machine) (lifecycle.Machine, error) {
	if m.HWSyncEnabled {
		return m, nil
	}
	m2, err := s.hwsync.EnableHWSync(ctx, m.SystemID)
	switch lifecycle.ErrorCode(err) {
	case "":
	case lifecycle.CodeInvalid:
		return m, runner.Classed(lifecycle.FailHardwareSync, lifecycle.Errorf(lifecycle.CodeConflict, "workflow",
			"MAAS refused to enable hardware sync on machine %s: %v", m.SystemID, err))
	default:
		return m, settingsErr(err)
	}
	c.Detail("enable_hw_sync", "was off in MAAS; turned back on")
	markRepair(c)
	observe(c, m2)
	return m2, nil
}

// settingsErr classifies a refused settings write: a key MAAS does not
// let change settings is a site capability; the rest keep their class.
func settingsErr(err error) error {
	switch lifecycle.ErrorCode(err) {
	case lifecycle.CodeForbidden, lifecycle.CodeUnauthorized:
		return runner.Classed(lifecycle.FailSiteCapabilityMissing, err)
	}
	return err
}
