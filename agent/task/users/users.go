package users

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func init() {
	task.Register(wire.TypeTerminalClose, Handler{Remove: false})
	task.Register(wire.TypeRevokeUser, Handler{Remove: true})
}

// Handler runs terminal.close, or allocation.revoke_user when Remove.
type Handler struct{ Remove bool }

// Run implements task.Handler.
func (h Handler) Run(ctx context.Context, env task.Env, payload []byte) (task.Result, error) {
	typ := wire.TypeTerminalClose
	if h.Remove {
		typ = wire.TypeRevokeUser
	}
	var p wire.UsersPayload
	if len(payload) > 0 {
		if err := json.Unmarshal(payload, &p); err != nil {
			return task.Result{}, fmt.Errorf("%s: payload is not a JSON object of the expected shape", typ)
		}
	}
	t, all, err := tenants(env, p.KeepUsers)
	if err != nil {
		return task.Result{}, fmt.Errorf("%s: %w", typ, err)
	}
	targets := t.Select(all, p.Users)
	ev := &wire.Evidence{Task: typ, CollectedAt: env.Now().UTC()}
	ev.Checks = append(ev.Checks, refused(t, all, p.Users))
	ev.Checks = append(ev.Checks, terminate(ctx, env, targets))
	ev.Checks = append(ev.Checks, sweep(ctx, env, t, all, targets, len(p.Users) == 0))
	if h.Remove {
		ev.Checks = append(ev.Checks, remove(ctx, env, targets))
	}
	return task.Finish(ev, fmt.Sprintf("%d tenant user(s) handled", len(targets)))
}

// tenants builds the tenant rule from login.defs, the policy and keep.
func tenants(env task.Env, keep []string) (hostinfo.Tenants, []hostinfo.User, error) {
	r, err := hostinfo.ReadUIDRange(env.Root)
	if err != nil {
		return hostinfo.Tenants{}, nil, err
	}
	all, err := hostinfo.ReadUsers(env.Root)
	if err != nil {
		return hostinfo.Tenants{}, nil, err
	}
	t := hostinfo.Tenants{Range: r, Keep: append(slices.Clone(env.Policy.KeepUsers), keep...), AgentUID: env.Policy.AgentUID}
	return t, all, nil
}

// refused fails when the payload names a user that is not a tenant (a
// kept or system user): those are never touched.
func refused(t hostinfo.Tenants, all []hostinfo.User, names []string) wire.Check {
	var bad []string
	for _, n := range names {
		i := slices.IndexFunc(all, func(u hostinfo.User) bool { return u.Name == n })
		if i >= 0 && !t.IsTenant(all[i]) {
			bad = append(bad, fmt.Sprintf("%s (uid %d)", n, all[i].UID))
		}
	}
	return task.Check("requested_users", bad, "only tenant users can be revoked; these were left alone")
}

// terminate ends each user's logind sessions; failures are noted, not
// fatal: the process sweep is what proves the sessions are gone.
func terminate(ctx context.Context, env task.Env, users []hostinfo.User) wire.Check {
	c := wire.Check{Name: "sessions_terminated", Passed: true}
	for _, u := range users {
		_, err := env.Exec.Exec(ctx, "loginctl", "terminate-user", u.Name)
		switch {
		case errors.Is(err, task.ErrNotFound):
			c.Reason = "loginctl not installed; sessions ended by the process sweep"
			return c
		case err != nil:
			c.Items = append(c.Items, u.Name+": "+err.Error())
		default:
			c.Items = append(c.Items, u.Name)
		}
	}
	c.Items, c.Omitted = task.Cap(c.Items)
	return c
}
