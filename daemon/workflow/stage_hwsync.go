package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// ensureHardwareSync is seed 001 §4.3 EnsureHardwareSyncConfigured on
// MAAS's side: the machine token emitted, the host reachable on its
// deploy address, the site's hardware_sync_interval and the machine's
// enable_hw_sync re-asserted in MAAS (§9.1 steps 1-3). The credentials
// went in through cloud-init; a reseed goes through the agent.
func (d Deps) ensureHardwareSync(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if err := d.connect(ctx, s, c, m); err != nil {
		return runner.Outcome{}, err
	}
	if !c.Policy.RequireHWSync {
		return runner.Done("host reachable; hardware sync not required by site policy"), nil
	}
	tok, err := s.tokens.MachineToken(ctx, m.SystemID)
	if err != nil {
		return runner.Outcome{}, err
	}
	if tok == nil {
		c.Detail("machine_token", "absent; waiting for MAAS to emit it")
		return runner.Wait(c.Now().Add(d.recheck()), lifecycle.MachineKey(m.SystemID)), nil
	}
	c.Detail("machine_token", "present")
	if err := assertSyncInterval(ctx, s, c, m); err != nil {
		return runner.Outcome{}, err
	}
	if _, err := assertHWSyncEnabled(ctx, s, c, m); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Done("hardware sync enabled, machine token present"), nil
}

// waitForHardwareSync waits for MAAS to show a healthy sync cycle
// (last_sync and next_sync set, last_sync within 1.5 intervals; MAAS's
// REST has no is_sync_healthy) that is fresh: later than the last repair
// of this run. While sync is unhealthy and the agent has enrolled, it
// reseeds the credentials through the agent, again once a reseed has
// had an interval and a half to show.
func (d Deps) waitForHardwareSync(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if !c.Policy.RequireHWSync {
		return runner.Skip("hardware sync not required by site policy"), nil
	}
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if m, err = assertHWSyncEnabled(ctx, s, c, m); err != nil {
		return runner.Outcome{}, err
	}
	after := parseVarTime(c.Var(varSyncAfter))
	if m.SyncHealthy(c.Now()) && (after.IsZero() || m.LastSync.After(after)) {
		c.Detail("last_sync", m.LastSync.Format(time.RFC3339))
		return runner.Done("hardware sync healthy"), nil
	}
	if !after.IsZero() {
		c.Detail("waiting_for", "a last_sync after "+after.Format(time.RFC3339Nano))
	}
	if err := d.reseed(ctx, s, c, m); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Wait(c.Now().Add(d.recheck()), lifecycle.MachineKey(m.SystemID), lifecycle.NodeKey(c.Run.NodeID)), nil
}

func parseVarTime(v string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, v)
	return t
}

// markRepair records now as the time a sync must follow.
func markRepair(c *runner.Context) {
	c.SetVar(varSyncAfter, c.Now().UTC().Format(time.RFC3339Nano))
}
