package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/scratchpath"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/residue"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func init() { task.Register(wire.TypeStorageCleanup, Handler{}) }

// TempPaths are always emptied by mode local.
var TempPaths = []string{"/tmp", "/var/tmp"}

// forbidden are never scratch paths nor config paths, nor anything above
// them; nothing under the pseudo and system trees is either.
var forbidden = []string{"/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/proc",
	"/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var", "/var/lib", "/var/log", "/mnt", "/media"}
var forbiddenTrees = []string{"/proc", "/sys", "/dev", "/etc", "/boot", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/var/lib"}

// Handler runs node.storage_cleanup.
type Handler struct{}

// Run implements task.Handler.
func (Handler) Run(ctx context.Context, env task.Env, payload []byte) (task.Result, error) {
	var p wire.StorageCleanupPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return task.Result{}, fmt.Errorf("storage_cleanup: payload is not a JSON object of the expected shape")
	}
	if p.Mode == wire.StorageDrives {
		return eraseDrives(ctx, env, p)
	}
	if p.Mode != wire.StorageLocal && p.Mode != wire.StorageWeka && p.Mode != wire.StorageAll {
		return task.Result{}, fmt.Errorf("storage_cleanup: mode %q: want local, weka, all or drives", p.Mode)
	}
	ev := &wire.Evidence{Task: wire.TypeStorageCleanup, CollectedAt: env.Now().UTC()}
	if p.Mode != wire.StorageLocal {
		ev.Checks = append(ev.Checks, unmountWeka(ctx, env))
		ev.Checks = append(ev.Checks, removeWekaConfig(env))
	}
	if p.Mode != wire.StorageWeka {
		for _, dir := range ScratchPaths(env.Policy.ScratchPaths, p.ScratchPaths) {
			ev.Checks = append(ev.Checks, scrubScratch(env, dir))
		}
		ev.Checks = append(ev.Checks, removeOwned(ctx, env))
	}
	return task.Finish(ev, "storage cleaned ("+p.Mode+")")
}

// removeOwned removes what departing tenants own in /dev/shm, /dev/mqueue,
// the cron and at spools, lingering and SysV IPC (agent/task/residue).
func removeOwned(ctx context.Context, env task.Env) wire.Check {
	r, err := residue.NewRule(env, nil)
	if err != nil {
		return task.Check("tenant_owned_removed", []string{"host"}, err.Error())
	}
	return residue.Remove(ctx, env, r)
}

// scrubScratch empties dir when CheckScratch allows it; any other dir is
// refused untouched, whatever the signed task says.
func scrubScratch(env task.Env, dir string) wire.Check {
	if err := CheckScratch(env.Policy, dir); err != nil {
		return task.Check("scrub:"+dir, []string{dir}, "refused: "+err.Error())
	}
	return Scrub(env.Root, dir)
}

// CheckScratch allows /tmp, /var/tmp, and a dir that lies at or under one
// of the host's scratch roots and is no system or home directory.
func CheckScratch(pol task.Policy, dir string) error {
	if slices.Contains(TempPaths, dir) {
		return nil
	}
	return scratchpath.Check(dir, pol.ScratchRoots)
}

// ScratchPaths returns /tmp, /var/tmp and the given lists, deduplicated.
func ScratchPaths(lists ...[]string) []string {
	out := slices.Clone(TempPaths)
	for _, l := range lists {
		for _, p := range l {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// CheckPath refuses a path that is not absolute and clean, is a system
// directory or lies in a system tree.
func CheckPath(p string) error {
	switch {
	case !filepath.IsAbs(p) || filepath.Clean(p) != p:
		return fmt.Errorf("%q is not a clean absolute path", p)
	case slices.Contains(forbidden, p):
		return fmt.Errorf("%s is a system directory", p)
	}
	for _, t := range forbiddenTrees {
		if strings.HasPrefix(p, t+"/") {
			return fmt.Errorf("%s is under %s", p, t)
		}
	}
	return nil
}

// symlinkOnPath returns the first component of host path p that is a
// symlink, or "" when none is (a missing component ends the walk).
func symlinkOnPath(root hostroot.Root, p string) string {
	cur := "/"
	for _, c := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		cur = filepath.Join(cur, c)
		fi, err := os.Lstat(root.Path(cur))
		if err != nil {
			return ""
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return cur
		}
	}
	return ""
}
