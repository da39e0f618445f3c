package residue

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// NewRule builds the rule from the host (login.defs, /etc/passwd, the
// mount table) and the policy's and payload's kept users. A kept user's
// UID is also taken as a kept GID (its personal group).
func NewRule(env task.Env, keep []string) (Rule, error) {
	rng, err := hostinfo.ReadUIDRange(env.Root)
	if err != nil {
		return Rule{}, err
	}
	users, err := hostinfo.ReadUsers(env.Root)
	if err != nil {
		return Rule{}, err
	}
	ms, err := hostinfo.ReadMounts(env.Root)
	if err != nil {
		return Rule{}, err
	}
	t := hostinfo.Tenants{Range: rng, Keep: slices.Concat(env.Policy.KeepUsers, keep), AgentUID: env.Policy.AgentUID}
	kept := t.KeptUIDs(users)
	r := Rule{Tenants: t, KeptUIDs: kept, KeptGIDs: kept}
	for _, m := range ms {
		if m.Point != "/" {
			r.Mounts = append(r.Mounts, m.Point)
		}
	}
	return r, nil
}

// Check is validation's "tenant_owned" check: it passes when the scan
// finds nothing, and names every item it found otherwise.
func Check(env task.Env, r Rule) (wire.Check, []wire.OwnedItem) {
	items, err := Scan(env.Root, r)
	c := task.Check("tenant_owned", names(items), "left behind by departing tenants (owned by a tenant UID or GID no kept user holds)")
	if err != nil {
		c.Passed = false
		c.Reason = "scan incomplete: " + err.Error()
	}
	return c, items[:min(len(items), wire.MaxItems)]
}

// Remove deletes the tenant-owned entries of the Removable trees, the
// lingering files and the SysV IPC objects (ipcrm through the exec
// seam); a tenant's file elsewhere is left for validation to name.
func Remove(ctx context.Context, env task.Env, r Rule) wire.Check {
	items, err := Scan(env.Root, r)
	if err != nil {
		return task.Check("tenant_owned_removed", []string{err.Error()}, "scan failed")
	}
	var done, failed []string
	for _, it := range items {
		var rerr error
		switch it.Kind {
		case KindShm, KindMqueue, KindSpool, KindLinger:
			if !exists(env.Root, it.Path) {
				continue // inside a tree removed before
			}
			rerr = os.RemoveAll(env.Root.Path(it.Path))
		case KindSysV:
			rerr = ipcrm(ctx, env, it.Path)
		default:
			continue
		}
		if rerr != nil {
			failed = append(failed, it.Path+": "+rerr.Error())
		} else {
			done = append(done, it.Path)
		}
	}
	c := task.Check("tenant_owned_removed", failed, "removal failed")
	if len(failed) == 0 {
		c.Items, c.Omitted = task.Cap(done)
		c.Reason = fmt.Sprintf("%d tenant-owned object(s) removed", len(done))
	}
	return c
}

// ipcrm removes one SysV object named "/proc/sysvipc/<table>#<id>".
func ipcrm(ctx context.Context, env task.Env, p string) error {
	table, id, _ := strings.Cut(p, "#")
	for _, t := range sysvTables {
		if t.file == table {
			_, err := env.Exec.Exec(ctx, "ipcrm", t.flag, id)
			return err
		}
	}
	return fmt.Errorf("unknown IPC table %s", table)
}

func names(items []wire.OwnedItem) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, fmt.Sprintf("%s %s uid=%d gid=%d", it.Kind, it.Path, it.UID, it.GID))
	}
	return out
}
