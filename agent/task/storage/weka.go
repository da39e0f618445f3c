package storage

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// IsWeka reports whether fstype is a Weka POSIX client mount.
func IsWeka(fstype string) bool { return fstype == "wekafs" || fstype == "fuse.wekafs" }

// unmountWeka unmounts every wekafs mount, deepest first, and proves from
// a fresh read of mountinfo that none is left.
func unmountWeka(ctx context.Context, env task.Env) wire.Check {
	const name = "weka_unmounted"
	ms, err := hostinfo.ReadMounts(env.Root)
	if err != nil {
		return task.Check(name, []string{hostinfo.MountinfoPath}, err.Error())
	}
	var points []string
	for _, m := range ms {
		if IsWeka(m.FSType) {
			points = append(points, m.Point)
		}
	}
	sort.Slice(points, func(i, j int) bool { return strings.Count(points[i], "/") > strings.Count(points[j], "/") })
	var errs []string
	for _, p := range points {
		if _, err := env.Exec.Exec(ctx, "umount", p); err != nil {
			errs = append(errs, p+": "+err.Error())
		}
	}
	if ms, err = hostinfo.ReadMounts(env.Root); err != nil {
		return task.Check(name, []string{hostinfo.MountinfoPath}, err.Error())
	}
	var left []string
	for _, m := range ms {
		if IsWeka(m.FSType) {
			left = append(left, m.Point+" ("+m.Source+")")
		}
	}
	if len(left) > 0 {
		return task.Check(name, left, "still mounted: "+strings.Join(errs, "; "))
	}
	c := task.Check(name, nil, "unmounted")
	c.Items, c.Omitted = task.Cap(points)
	return c
}

// removeWekaConfig removes the configured tenant Weka config paths; a
// link is removed as a link.
func removeWekaConfig(env task.Env) wire.Check {
	const name = "weka_config_removed"
	var bad, removed []string
	for _, p := range env.Policy.WekaConfigPaths {
		if err := checkConfigPath(p); err != nil {
			bad = append(bad, p+": refused: "+err.Error())
			continue
		}
		if l := symlinkOnPath(env.Root, p); l != "" && l != p {
			bad = append(bad, p+": refused: "+l+" is a symlink")
			continue
		}
		if _, err := os.Lstat(env.Root.Path(p)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.RemoveAll(env.Root.Path(p)); err != nil {
			bad = append(bad, p+": "+err.Error())
			continue
		}
		removed = append(removed, p)
	}
	if len(bad) > 0 {
		return task.Check(name, bad, "not removed")
	}
	c := task.Check(name, nil, "removed")
	c.Items, c.Omitted = task.Cap(removed)
	return c
}

// checkConfigPath allows files under /etc and /root too, but never a
// system directory itself.
func checkConfigPath(p string) error {
	if err := CheckPath(p); err != nil && !strings.HasPrefix(p, "/etc/") {
		return err
	}
	return nil
}
