package users

import (
	"context"
	"fmt"
	"slices"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/task/reap"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// sweep kills the targets' processes; with anyTenant, every process of a
// tenant-range UID that is not a kept user's.
func sweep(ctx context.Context, env task.Env, t hostinfo.Tenants, all, targets []hostinfo.User, anyTenant bool) wire.Check {
	kept := t.KeptUIDs(all)
	uids := map[int]bool{}
	for _, u := range targets {
		uids[u.UID] = true
	}
	match := func(p hostinfo.Proc) bool {
		if anyTenant {
			return t.IsTenantUID(p.UID) && !kept[p.UID]
		}
		return uids[p.UID]
	}
	procs, err := hostinfo.ReadProcs(env.Root)
	if err != nil {
		return wire.Check{Name: "processes_killed", Reason: err.Error()}
	}
	var pids []int
	var killed []string
	for _, p := range procs {
		if match(p) {
			pids = append(pids, p.PID)
			killed = append(killed, fmt.Sprintf("%d %s uid=%d", p.PID, p.Name, p.UID))
		}
	}
	left, err := reap.Kill(ctx, env, pids)
	var leftItems []string
	for _, p := range left {
		i := slices.Index(pids, p)
		leftItems = append(leftItems, killed[i])
	}
	c := task.Check("processes_killed", leftItems, "")
	switch {
	case err != nil:
		c.Passed, c.Reason = false, err.Error()
	case len(left) > 0:
		c.Reason = "processes still running after SIGKILL"
	default:
		c.Items, c.Omitted = task.Cap(killed)
		c.Reason = fmt.Sprintf("%d process(es) killed", len(pids))
	}
	return c
}

// remove runs userdel -r for each target, then proves they are gone.
// Exit 6 (no such user) is success: a repeated task finds them removed.
func remove(ctx context.Context, env task.Env, targets []hostinfo.User) wire.Check {
	var failed []string
	for _, u := range targets {
		_, err := env.Exec.Exec(ctx, "userdel", "-r", u.Name)
		if err != nil && task.ExitCode(err) != 6 {
			failed = append(failed, u.Name+": "+err.Error())
		}
	}
	all, err := hostinfo.ReadUsers(env.Root)
	if err != nil {
		return wire.Check{Name: "users_removed", Reason: err.Error()}
	}
	for _, u := range targets {
		if slices.ContainsFunc(all, func(v hostinfo.User) bool { return v.Name == u.Name }) {
			failed = append(failed, u.Name+": still in /etc/passwd")
		}
	}
	if len(failed) > 0 {
		return task.Check("users_removed", failed, "userdel failed")
	}
	names := make([]string, 0, len(targets))
	for _, u := range targets {
		names = append(names, u.Name)
	}
	c := task.Check("users_removed", nil, fmt.Sprintf("%d user(s) removed", len(targets)))
	c.Items, c.Omitted = task.Cap(names)
	return c
}
