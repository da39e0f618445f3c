package drives

import (
	"context"
	"fmt"
	"sort"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
)

// Unmount unmounts every filesystem on d or its partitions, deepest
// first, and returns them (shallowest first) so Restore can put the
// layout back.
func Unmount(ctx context.Context, env task.Env, d Drive) ([]hostinfo.Mount, error) {
	ms, err := hostinfo.ReadMounts(env.Root)
	if err != nil {
		return nil, err
	}
	var on []hostinfo.Mount
	for _, m := range ms {
		if d.holds(m.MajorMinor) {
			on = append(on, m)
		}
	}
	sort.SliceStable(on, func(i, j int) bool { return len(on[i].Point) > len(on[j].Point) })
	for _, m := range on {
		if _, err := env.Exec.Exec(ctx, "umount", m.Point); err != nil {
			return nil, fmt.Errorf("unmount %s: %w", m.Point, err)
		}
	}
	sort.SliceStable(on, func(i, j int) bool { return len(on[i].Point) < len(on[j].Point) })
	return on, nil
}

// Restore makes a filesystem on the erased drive and mounts it where its
// first filesystem was: the type it had, else fs (the policy's). Nothing
// when neither is known. Partitions are not recreated: the drive gets
// one filesystem.
func Restore(ctx context.Context, env task.Env, d Drive, was []hostinfo.Mount, fs string) (string, error) {
	point := ""
	if len(was) > 0 {
		fs, point = was[0].FSType, was[0].Point
	}
	if fs == "" {
		return "no filesystem (none was mounted, and the policy names none)", nil
	}
	var mkfs []string
	switch fs {
	case "ext4":
		mkfs = []string{"mkfs.ext4", "-F", "-q", d.Path()}
	case "xfs":
		mkfs = []string{"mkfs.xfs", "-f", "-q", d.Path()}
	default:
		return "", fmt.Errorf("cannot recreate a %s filesystem (ext4 or xfs)", fs)
	}
	if _, err := env.Exec.Exec(ctx, mkfs[0], mkfs[1:]...); err != nil {
		return "", fmt.Errorf("%s: %w", mkfs[0], err)
	}
	if point == "" {
		return fs + " made", nil
	}
	if _, err := env.Exec.Exec(ctx, "mount", "-t", fs, d.Path(), point); err != nil {
		return "", fmt.Errorf("mount %s: %w", point, err)
	}
	return fs + " made and mounted at " + point, nil
}
