package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// reseed queues node.hw_sync_reseed once the agent has enrolled, unless
// this run reseeded less than an interval and a half ago (the time a
// sync needs to show); the queue deduplicates a task that is still fresh
// or running. The stored payload names the machine only: the agent API
// adds the machine's MAAS credentials when it dispatches the task, so
// they never reach the store.
func (d Deps) reseed(ctx context.Context, s session, c *runner.Context, m lifecycle.Machine) error {
	n, err := d.Store.GetNode(ctx, c.Run.NodeID)
	if err != nil || n.EnrolledAt == nil {
		return err
	}
	if last := parseVarTime(c.Var(varReseedAt)); !last.IsZero() && c.Now().Before(last.Add(syncGrace(m))) {
		return nil
	}
	id, err := d.NewID()
	if err != nil {
		return err
	}
	t, created, err := d.Tasks.Enqueue(ctx, lifecycle.ReseedTask(id, n.ID, c.Run.ID, s.site.ID, m.SystemID, c.Now().Add(time.Hour)))
	if err != nil {
		return err
	}
	if created {
		c.Detail("reseed_task", id)
	} else {
		c.Detail("reseed_task", t.ID+" (already queued)")
	}
	c.SetVar(varReseedAt, c.Now().UTC().Format(time.RFC3339Nano))
	markRepair(c)
	return nil
}

// syncGrace is how long a reseed has to show as a sync: MAAS's health
// bound, 1.5 sync intervals (the default interval when MAAS shows none).
func syncGrace(m lifecycle.Machine) time.Duration {
	iv := m.SyncInterval
	if iv <= 0 {
		iv = 15 * time.Minute
	}
	return iv * 3 / 2
}
