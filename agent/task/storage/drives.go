package storage

import (
	"context"
	"fmt"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/drives"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// eraseDrives is mode drives: each tenant drive the payload's policy
// names gets canaries, is unmounted, erased by its own sanitize or
// format, read back and given its filesystem again (agent/task/drives).
func eraseDrives(ctx context.Context, env task.Env, p wire.StorageCleanupPayload) (task.Result, error) {
	if p.Drives == nil {
		return task.Result{}, fmt.Errorf("storage_cleanup: mode drives needs drives (the site's tenant_drives policy)")
	}
	ev := &wire.Evidence{Task: wire.TypeStorageCleanup, CollectedAt: env.Now().UTC()}
	var checks []wire.Check
	ev.Drives, checks, ev.Erase = drives.Clean(ctx, env, *p.Drives)
	ev.Checks = append(ev.Checks, checks...)
	return task.Finish(ev, "tenant drives erased")
}
