package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/task/inventory"
	"github.com/gpuaas/maas-sidecar/agent/task/residue"
	"github.com/gpuaas/maas-sidecar/agent/task/storage"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func init() { task.Register(wire.TypeValidateClean, Handler{}) }

// Handler runs node.validate_clean. Vendors as in gpuscrub.Handler.
type Handler struct {
	Vendors func(task.Env) []gpu.Vendor
}

// Timeout implements task.Timeouter: a DCGM level 4 diagnostic may take
// its default bound of three hours.
func (Handler) Timeout() time.Duration { return gpu.DiagTimeouts[4] + 10*time.Minute }

// Run implements task.Handler.
func (h Handler) Run(ctx context.Context, env task.Env, payload []byte) (task.Result, error) {
	var p wire.ValidateCleanPayload
	if len(payload) > 0 {
		if err := json.Unmarshal(payload, &p); err != nil {
			return task.Result{}, fmt.Errorf("validate_clean: payload is not a JSON object of the expected shape")
		}
	}
	if p.Mode != "" && p.Mode != wire.ModeOnboardingAcceptance {
		return task.Result{}, fmt.Errorf("validate_clean: mode %q is not %q or empty", p.Mode, wire.ModeOnboardingAcceptance)
	}
	ev := &wire.Evidence{Task: wire.TypeValidateClean, Mode: p.Mode, CollectedAt: env.Now().UTC()}
	t, err := tenants(env, p.KeepUsers)
	if err != nil {
		ev.Checks = append(ev.Checks, task.Check("tenant_users", []string{"/etc/passwd"}, err.Error()))
	} else {
		ev.Checks = append(ev.Checks, users(env, t), procs(env, t))
		ev.Checks = append(ev.Checks, mounts(env, t, slices.Concat(env.Policy.MountAllowlist, p.MountAllowlist)))
		ev.Checks = append(ev.Checks, owned(env, ev, p.KeepUsers))
	}
	for _, dir := range storage.ScratchPaths(env.Policy.ScratchPaths, p.ScratchPaths) {
		ev.Checks = append(ev.Checks, empty(env, dir))
	}
	vendors := gpu.Vendors
	if h.Vendors != nil {
		vendors = h.Vendors
	}
	r := gpu.Validate(ctx, env, vendors(env), gpu.Options{MemoryUsedMaxMiB: p.MemoryUsedMaxMiB})
	ev.Checks, ev.GPUs, ev.Tools = append(ev.Checks, r.Checks...), r.GPUs, r.Tools
	history := r.History()
	if p.TenancySince != nil && r.Count(wire.VendorNVIDIA) > 0 {
		xids, c := gpu.TenancyXids(ctx, env, *p.TenancySince)
		ev.Checks, history = append(ev.Checks, c), append(history, xids...)
	}
	ev.Inventory = inventory.FromGPUs(ctx, env, r.GPUs)
	var diag wire.Check
	ev.Diag, diag = gpu.Diag(ctx, env.Exec, env.Now, p.DCGM, r.Count(wire.VendorNVIDIA), history)
	ev.Checks = append(ev.Checks, diag)
	return task.Finish(ev, "node is clean")
}

// owned scans for what departing tenants own (agent/task/residue).
func owned(env task.Env, ev *wire.Evidence, keep []string) wire.Check {
	r, err := residue.NewRule(env, keep)
	if err != nil {
		return task.Check("tenant_owned", []string{"host"}, err.Error())
	}
	c, items := residue.Check(env, r)
	ev.TenantOwned = items
	return c
}

type rule struct {
	hostinfo.Tenants
	all []hostinfo.User
}

func tenants(env task.Env, keep []string) (rule, error) {
	r, err := hostinfo.ReadUIDRange(env.Root)
	if err != nil {
		return rule{}, err
	}
	all, err := hostinfo.ReadUsers(env.Root)
	if err != nil {
		return rule{}, err
	}
	return rule{hostinfo.Tenants{Range: r, Keep: slices.Concat(env.Policy.KeepUsers, keep), AgentUID: env.Policy.AgentUID}, all}, nil
}

func users(_ task.Env, t rule) wire.Check {
	var left []string
	for _, u := range t.Select(t.all, nil) {
		left = append(left, fmt.Sprintf("%s (uid %d)", u.Name, u.UID))
	}
	return task.Check("tenant_users", left, "tenant users in /etc/passwd")
}

func procs(env task.Env, t rule) wire.Check {
	ps, err := hostinfo.ReadProcs(env.Root)
	if err != nil {
		return task.Check("tenant_processes", []string{"/proc"}, err.Error())
	}
	kept := t.KeptUIDs(t.all)
	var left []string
	for _, p := range ps {
		if t.IsTenantUID(p.UID) && !kept[p.UID] {
			left = append(left, fmt.Sprintf("%d %s uid=%d", p.PID, p.Name, p.UID))
		}
	}
	return task.Check("tenant_processes", left, "processes of tenant UIDs running")
}

// builtin mount points allowed with everything under them, and alone.
var (
	allowTrees = []string{"/proc", "/sys", "/dev", "/run", "/snap", "/var/lib/snapd", "/var/snap"}
	allowExact = []string{"/", "/boot", "/boot/efi"}
)

func mounts(env task.Env, t rule, extra []string) wire.Check {
	ms, err := hostinfo.ReadMounts(env.Root)
	if err != nil {
		return task.Check("mounts", []string{hostinfo.MountinfoPath}, err.Error())
	}
	var bad []string
	for _, m := range ms {
		if !allowed(m.Point, t, extra) {
			bad = append(bad, fmt.Sprintf("%s (%s %s)", m.Point, m.FSType, m.Source))
		}
	}
	return task.Check("mounts", bad, "mounts outside the allowlist")
}

func allowed(point string, t rule, extra []string) bool {
	if rest, ok := strings.CutPrefix(point, "/run/user/"); ok {
		uid, err := strconv.Atoi(strings.SplitN(rest, "/", 2)[0])
		if err == nil && t.IsTenantUID(uid) && !t.KeptUIDs(t.all)[uid] {
			return false
		}
	}
	if slices.Contains(allowExact, point) {
		return true
	}
	for _, d := range slices.Concat(allowTrees, extra) {
		if hostinfo.Under(point, d) {
			return true
		}
	}
	return false
}

// empty checks a scratch directory has no entries; an absent one is empty.
func empty(env task.Env, dir string) wire.Check {
	name := "scratch_empty:" + dir
	if err := storage.CheckScratch(env.Policy, dir); err != nil {
		return task.Check(name, []string{dir}, "refused: "+err.Error())
	}
	if l := storage.SymlinkOnPath(env.Root, dir); l != "" {
		return task.Check(name, []string{l}, "refused: "+l+" is a symlink; not followed")
	}
	ents, err := os.ReadDir(env.Root.Path(dir))
	if os.IsNotExist(err) {
		return task.Check(name, nil, "absent")
	}
	if err != nil {
		return task.Check(name, []string{dir}, err.Error())
	}
	var left []string
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && storage.Preserved(dir, e.Name(), fi) {
			continue
		}
		left = append(left, dir+"/"+e.Name())
	}
	return task.Check(name, left, "entries left")
}
