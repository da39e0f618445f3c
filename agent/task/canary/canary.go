// Package canary is node.canary_plant and node.canary_check: the proof
// that an erase the agent does not run itself (MAAS's, at a reimage)
// reached the tenant drives. The plant writes random blocks at random
// offsets of each tenant drive (where the erase mode reaches) and
// reports only offsets and digests; the agent of the redeployed host
// reads the same offsets back, and a block that still matches its digest
// fails the check, naming the drive and the offsets.
package canary

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/drives"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

func init() {
	task.Register(wire.TypeCanaryPlant, Plant{})
	task.Register(wire.TypeCanaryCheck, Check{})
}

// Plant runs node.canary_plant.
type Plant struct{}

// Run implements task.Handler. A policy that names the boot disk plants
// nothing and fails.
func (Plant) Run(_ context.Context, env task.Env, payload []byte) (task.Result, error) {
	var p wire.CanaryPlantPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return task.Result{}, fmt.Errorf("canary_plant: payload is not a JSON object of the expected shape")
	}
	if p.Placement != wire.PlaceFull && p.Placement != wire.PlaceQuick {
		return task.Result{}, fmt.Errorf("canary_plant: placement %q: want full or quick", p.Placement)
	}
	ev := &wire.Evidence{Task: wire.TypeCanaryPlant, CollectedAt: env.Now().UTC()}
	ds, err := drives.PlantAll(env, p.Drives, p.Placement)
	if err != nil {
		ev.Checks = append(ev.Checks, task.Check("canary_plant", []string{"policy"}, err.Error()))
		return task.Finish(ev, "")
	}
	ev.Drives = ds
	ev.Checks = append(ev.Checks, task.Check("canary_plant", nil, fmt.Sprintf("canaries on %d tenant drives (%s placement)", len(ds), p.Placement)))
	return task.Finish(ev, "canaries planted")
}

// Check runs node.canary_check.
type Check struct{}

// Run implements task.Handler. Drives are found again by serial (the
// device name may change across a reimage), else by device.
func (Check) Run(_ context.Context, env task.Env, payload []byte) (task.Result, error) {
	var p wire.CanaryCheckPayload
	if err := json.Unmarshal(payload, &p); err != nil || len(p.Planted) == 0 {
		return task.Result{}, fmt.Errorf("canary_check: payload needs the planted drives and their canaries")
	}
	ev := &wire.Evidence{Task: wire.TypeCanaryCheck, CollectedAt: env.Now().UTC()}
	all, err := drives.List(env.Root)
	if err != nil {
		ev.Checks = append(ev.Checks, task.Check("canary_check", []string{"/sys/block"}, err.Error()))
		return task.Finish(ev, "")
	}
	sum := p.Erase
	sum.Canary = wire.CanaryPassed
	for _, pl := range p.Planted {
		d := readBack(env, all, pl, p.Erase)
		if !d.Passed {
			sum.Canary = wire.CanaryFailed
		}
		var bad []string
		if !d.Passed {
			bad = []string{d.Device}
		}
		ev.Drives = append(ev.Drives, d)
		ev.Checks = append(ev.Checks, task.Check("canary:"+d.Device, bad, d.Reason))
	}
	ev.Erase = &sum
	return task.Finish(ev, "no canary survived the erase")
}

func readBack(env task.Env, all []drives.Drive, pl wire.DriveEvidence, er wire.EraseEvidence) wire.DriveEvidence {
	out := wire.DriveEvidence{Device: pl.Device, Serial: pl.Serial, Model: pl.Model, Canaries: pl.Canaries}
	dev := pl.Device
	for _, d := range all {
		if pl.Serial != "" && d.Serial == pl.Serial {
			dev = d.Path()
		}
	}
	out.Device = dev
	got, err := drives.Survivors(env.Root, dev, pl.Canaries)
	switch {
	case err != nil:
		out.Reason = "canaries not read back: " + err.Error()
	case len(got) > 0:
		out.Survivors = got
		out.Reason = fmt.Sprintf("%d of %d canaries survived %s's %s erase at offsets %s: the erase did not reach them",
			len(got), len(pl.Canaries), strings.ToUpper(er.By), er.Mode, offsets(got))
	default:
		out.Passed = true
		out.Reason = fmt.Sprintf("%d canaries read back, none survived", len(pl.Canaries))
	}
	return out
}

func offsets(o []int64) string {
	s := make([]string, len(o))
	for i, v := range o {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ",")
}
