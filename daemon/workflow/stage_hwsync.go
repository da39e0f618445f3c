package workflow

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// ensureHardwareSync checks the invariant of seed 001 §9.1 on MAAS's side:
// hardware sync enabled and a machine token emitted. The first seed of the
// credentials went in through cloud-init; a reseed goes through the agent.
func (d Deps) ensureHardwareSync(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if !c.Policy.RequireHWSync {
		return runner.Skip("hardware sync not required by site policy"), nil
	}
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if !m.HWSyncEnabled {
		return runner.Outcome{}, runner.Classed(lifecycle.FailHardwareSync, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "machine %s was deployed without enable_hw_sync", m.SystemID))
	}
	tok, err := s.maas.MachineToken(ctx, m.SystemID)
	if err != nil {
		return runner.Outcome{}, err
	}
	if tok == nil {
		c.Detail("machine_token", "absent; waiting for MAAS to emit it")
		return runner.Wait(c.Now().Add(d.recheck()), lifecycle.MachineKey(m.SystemID)), nil
	}
	c.Detail("machine_token", "present")
	return runner.Done("hardware sync enabled, machine token present"), nil
}

// waitForHardwareSync waits for MAAS to show a sync cycle (last_sync and
// next_sync set, last_sync fresh). While it waits for an enrolled agent,
// it queues one credential reseed through the agent.
func (d Deps) waitForHardwareSync(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	if !c.Policy.RequireHWSync {
		return runner.Skip("hardware sync not required by site policy"), nil
	}
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	if m.SyncHealthy(c.Now()) {
		c.Detail("last_sync", m.LastSync.Format(time.RFC3339))
		return runner.Done("hardware sync healthy"), nil
	}
	if err := d.reseed(ctx, s, c, m); err != nil {
		return runner.Outcome{}, err
	}
	return runner.Wait(c.Now().Add(d.recheck()), lifecycle.MachineKey(m.SystemID), lifecycle.NodeKey(c.Run.NodeID)), nil
}

// reseed queues node.hw_sync_reseed once the agent has enrolled; the
// queue deduplicates a task that is still fresh or running. The stored
// payload names the machine only: the agent API adds the machine's MAAS
// credentials when it dispatches the task, so they never reach the store.
func (d Deps) reseed(ctx context.Context, s session, c *runner.Context, m lifecycle.Machine) error {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil || n.EnrolledAt == nil {
		return err
	}
	payload, _ := json.Marshal(map[string]string{"site_id": s.site.ID, "system_id": m.SystemID})
	id, err := d.NewID()
	if err != nil {
		return err
	}
	_, created, err := d.Tasks.Enqueue(ctx, lifecycle.AgentTask{ID: id, NodeID: n.ID, Type: lifecycle.TaskHWSyncReseed,
		Payload: payload, RunID: c.Run.ID, ExpiresAt: c.Now().Add(time.Hour)})
	if created {
		c.Detail("reseed_task", id)
	}
	return err
}
