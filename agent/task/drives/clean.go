package drives

import (
	"context"
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Find returns every drive, the boot disks and the tenant drives of p.
func Find(env task.Env, p wire.DrivePolicy) (all, sel []Drive, err error) {
	all, err = List(env.Root)
	if err != nil {
		return nil, nil, err
	}
	boot, err := BootDisks(env.Root, all)
	if err != nil {
		return nil, nil, err
	}
	sel, err = Select(p, all, boot)
	if err != nil {
		return nil, nil, err
	}
	if len(sel) == 0 {
		return nil, nil, fmt.Errorf("drives: no drive matches the tenant drive policy (serials %v, models %v, all_nvme %v)", p.Serials, p.Models, p.AllNVMe)
	}
	return all, sel, nil
}

// Clean erases every tenant drive of p: canaries, unmount, the drive's
// own erase, canary read-back, the layout back. A policy that names the
// boot disk, or matches nothing, erases nothing and fails the check
// "tenant_drives".
func Clean(ctx context.Context, env task.Env, p wire.DrivePolicy) ([]wire.DriveEvidence, []wire.Check, *wire.EraseEvidence) {
	all, sel, err := Find(env, p)
	if err != nil {
		return nil, []wire.Check{task.Check("tenant_drives", []string{"policy"}, err.Error())}, nil
	}
	checks := []wire.Check{task.Check("tenant_drives", nil, fmt.Sprintf("%d tenant drives", len(sel)))}
	var evs []wire.DriveEvidence
	var methods []string
	canary := wire.CanaryPassed
	for _, d := range sel {
		ev := cleanOne(ctx, env, d, Exclusive(d, all, sel), p)
		evs = append(evs, ev)
		if ev.Method != "" && !strings.Contains(strings.Join(methods, ","), ev.Method) {
			methods = append(methods, ev.Method)
		}
		if !ev.Passed {
			canary = wire.CanaryFailed
		}
		var bad []string
		if !ev.Passed {
			bad = []string{d.Path()}
		}
		checks = append(checks, task.Check("erase:"+d.Path(), bad, ev.Reason))
	}
	return evs, checks, &wire.EraseEvidence{By: "drive", Mode: strings.Join(methods, ","),
		Covers: "every block of each tenant namespace (the drive's own sanitize or format)", Canary: canary}
}

func cleanOne(ctx context.Context, env task.Env, d Drive, exclusive bool, p wire.DrivePolicy) wire.DriveEvidence {
	ev := wire.DriveEvidence{Device: d.Path(), Serial: d.Serial, Model: d.Model}
	fail := func(format string, a ...any) wire.DriveEvidence {
		ev.Reason = fmt.Sprintf(format, a...)
		return ev
	}
	methods, err := Methods(ctx, env, d, exclusive)
	if err != nil {
		return fail("%v", err)
	}
	cs, err := Plant(env.Root, d, p.Canaries, wire.PlaceFull, env.Rand)
	if err != nil {
		return fail("canaries not written, nothing erased: %v", err)
	}
	ev.Canaries = cs
	was, err := Unmount(ctx, env, d)
	if err != nil {
		return fail("not erased: %v", err)
	}
	ev.Method, ev.Tried, err = Erase(ctx, env, d, methods)
	if err != nil {
		return fail("%v", err)
	}
	if ev.Survivors, err = Survivors(env.Root, d.Path(), cs); err != nil {
		return fail("erased with %s, canaries unreadable: %v", ev.Method, err)
	}
	if len(ev.Survivors) > 0 {
		return fail("erased with %s, yet %d of %d canaries survived at offsets %v", ev.Method, len(ev.Survivors), len(cs), ev.Survivors)
	}
	layout, err := Restore(ctx, env, d, was, p.Filesystem)
	if err != nil {
		return fail("erased with %s, no canary survived; layout not restored: %v", ev.Method, err)
	}
	ev.Passed = true
	ev.Reason = fmt.Sprintf("erased with %s; %d canaries read back, none survived; %s", ev.Method, len(cs), layout)
	return ev
}

// PlantAll writes canaries on every tenant drive of p with placement.
func PlantAll(env task.Env, p wire.DrivePolicy, placement string) ([]wire.DriveEvidence, error) {
	_, sel, err := Find(env, p)
	if err != nil {
		return nil, err
	}
	var out []wire.DriveEvidence
	for _, d := range sel {
		cs, err := Plant(env.Root, d, p.Canaries, placement, env.Rand)
		if err != nil {
			return nil, err
		}
		out = append(out, wire.DriveEvidence{Device: d.Path(), Serial: d.Serial, Model: d.Model, Canaries: cs, Passed: true,
			Reason: fmt.Sprintf("%d canaries written (%s placement)", len(cs), placement)})
	}
	return out, nil
}
