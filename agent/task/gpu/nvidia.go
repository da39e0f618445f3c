package gpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// NVIDIA is nvidia-smi through the exec seam.
type NVIDIA struct {
	Exec task.Exec
	// Wait sleeps between fabric-state polls.
	Wait func(ctx context.Context, d time.Duration) error
	// FabricPolls and FabricInterval bound the wait for the NVSwitch
	// fabric to come back to Completed after a reset.
	FabricPolls    int
	FabricInterval time.Duration
}

const smi = "nvidia-smi"

// nvidia-smi exit code for "operation not available on the device".
const exitNotSupported = 3

// Name implements Vendor.
func (NVIDIA) Name() string { return wire.VendorNVIDIA }

// MemoryUsedMaxMiB implements Vendor: idle H100/H200 read 0, 55-59 MiB
// with MIG on.
func (NVIDIA) MemoryUsedMaxMiB() int64 { return 64 }

// Version implements Vendor: nvidia-smi ships with, and reports, the driver.
func (n NVIDIA) Version(ctx context.Context) (wire.ToolVersion, error) {
	_, driver, err := n.query(ctx)
	return wire.ToolVersion{Name: smi, Version: "driver " + driver}, err
}

// fields asks the driver which of NVIDIAFields it offers.
func (n NVIDIA) fields(ctx context.Context) (query, missing []string, err error) {
	out, err := n.Exec.Exec(ctx, smi, "--help-query-gpu")
	if err != nil {
		return nil, nil, fmt.Errorf("nvidia-smi --help-query-gpu: %w", err)
	}
	return SupportedNVIDIAFields(ParseNVIDIAHelpQuery(string(out)))
}

func (n NVIDIA) query(ctx context.Context) ([]Device, string, error) {
	fields, _, err := n.fields(ctx)
	if err != nil {
		return nil, "", err
	}
	out, err := n.Exec.Exec(ctx, smi, "--query-gpu="+strings.Join(fields, ","), "--format=csv,noheader,nounits")
	if err != nil {
		return nil, "", fmt.Errorf("nvidia-smi query: %w", err)
	}
	return ParseNVIDIAGPUs(string(out), fields)
}

// Notes implements Noter: the fields this driver does not offer, and the
// rule they are judged under.
func (n NVIDIA) Notes(ctx context.Context) []wire.Check {
	query, missing, err := n.fields(ctx)
	older := olderNamesUsed(query)
	switch {
	case err != nil:
		return []wire.Check{{Name: "gpu_fields:nvidia", Reason: err.Error()}}
	case len(missing) == 0 && len(older) == 0:
		return []wire.Check{{Name: "gpu_fields:nvidia", Passed: true, Reason: "the driver offers every field queried"}}
	}
	return []wire.Check{{Name: "gpu_fields:nvidia", Passed: true, Items: append(missing, older...), Reason: absentFieldRule}}
}

// Inventory implements Vendor.
func (n NVIDIA) Inventory(ctx context.Context) ([]Device, error) {
	devs, _, err := n.query(ctx)
	if err != nil {
		return nil, err
	}
	out, err := n.Exec.Exec(ctx, smi, "--query-compute-apps="+strings.Join(NVIDIAAppFields, ","), "--format=csv,noheader,nounits")
	if err != nil {
		return nil, fmt.Errorf("nvidia-smi compute apps: %w", err)
	}
	apps, err := ParseNVIDIAApps(string(out))
	if err != nil {
		return nil, err
	}
	for _, a := range apps {
		for i := range devs {
			if devs[i].ID.UUID == a.UUID {
				devs[i].State.ComputeProcesses = append(devs[i].State.ComputeProcesses, a.Proc)
			}
		}
	}
	n.readNVLinks(ctx, devs)
	return devs, nil
}

// Reset implements Vendor: persistence off, one reset command for every
// GPU (NVLink peers together), persistence restored, fabric awaited.
func (n NVIDIA) Reset(ctx context.Context, devs []Device) map[string]error {
	var all, persistent []string
	for _, d := range devs {
		all = append(all, d.ID.UUID)
		if d.State.PersistenceMode == "Enabled" {
			persistent = append(persistent, d.ID.UUID)
		}
	}
	errs := map[string]error{}
	if len(persistent) > 0 {
		if _, err := n.Exec.Exec(ctx, smi, "-pm", "0", "-i", strings.Join(persistent, ",")); err != nil {
			for _, u := range persistent {
				errs[u] = fmt.Errorf("persistence mode off: %w", err)
			}
			return errs
		}
		defer func() {
			if _, err := n.Exec.Exec(context.WithoutCancel(ctx), smi, "-pm", "1", "-i", strings.Join(persistent, ",")); err != nil {
				for _, u := range persistent {
					errs[u] = errors.Join(errs[u], fmt.Errorf("persistence mode not restored: %w", err))
				}
			}
		}()
	}
	out, err := n.Exec.Exec(ctx, smi, "-r", "-i", strings.Join(all, ","))
	ok, failed := ParseNVIDIAReset(string(out))
	if ee := (*task.ExitError)(nil); errors.As(err, &ee) {
		more, bad := ParseNVIDIAReset(string(ee.Stderr))
		for k := range more {
			ok[k] = true
		}
		for k, v := range bad {
			failed[k] = v
		}
	}
	for _, d := range devs {
		key := busKey(d.ID.BusID)
		switch {
		case failed[key] != "":
			errs[d.ID.UUID] = fmt.Errorf("could not be reset: %s", failed[key])
		case ok[key]:
		case err != nil:
			errs[d.ID.UUID] = fmt.Errorf("no success reported: %w", err)
		default:
			errs[d.ID.UUID] = errors.New("no success reported: nvidia-smi exited 0 without naming this GPU as reset")
		}
	}
	n.awaitFabric(ctx, devs)
	return errs
}

// awaitFabric polls until no GPU whose fabric was Completed before the
// reset reads In Progress or Not Started.
func (n NVIDIA) awaitFabric(ctx context.Context, before []Device) {
	was := map[string]bool{}
	for _, d := range before {
		was[d.ID.UUID] = d.State.FabricState == "Completed"
	}
	for i := 0; i < n.FabricPolls; i++ {
		devs, _, err := n.query(ctx)
		if err != nil {
			return
		}
		settled := true
		for _, d := range devs {
			if was[d.ID.UUID] && d.State.FabricState != "Completed" {
				settled = false
			}
		}
		if settled || n.Wait(ctx, n.FabricInterval) != nil {
			return
		}
	}
}
