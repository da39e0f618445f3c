package simhost

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/sim/fakehost"
)

// DefaultResidue is the tenant residue dev mode leaves on a demo host once
// its onboarding passed acceptance (a tenancy), for a decommission to
// find and clear (fakehost residue's JSON).
const DefaultResidue = `{"user":"tenant1","process":true,"session":true,"weka_mount":"/mnt/weka","gpu_memory_mib":4096,"scratch_file":true}`

// provision lays out the host's base files, its GPUs and the fake host
// tools by running the fakehost binary in o.ToolsDir, then injects
// o.Residue. The daemon never links the fakes: they are separate binaries
// that `make build` puts beside it. Without them the host boots with
// the base files of a freshly installed host only (accounts, mounts:
// what the onboarding acceptance reads), no GPUs and no host tools,
// which is logged when tools were asked for.
func provision(ctx context.Context, root string, o Options, log *slog.Logger) error {
	if o.ToolsDir == "" {
		return fakehost.Provision(root, fakehost.Spec{})
	}
	bin := filepath.Join(o.ToolsDir, "fakehost")
	if _, err := os.Stat(bin); err != nil {
		log.Warn("no fake host tools beside the daemon (run make build): the simulated host has no GPUs and no host tools", "err", err)
		return fakehost.Provision(root, fakehost.Spec{})
	}
	gpus := o.GPUs
	if gpus == "" {
		gpus = "nvidia:8"
	}
	if err := runFakehost(ctx, bin, "provision", "--root", root, "--gpus", gpus, "--tools-dir", o.ToolsDir); err != nil {
		return err
	}
	if o.Residue == "" {
		return nil
	}
	return runFakehost(ctx, bin, "residue", "--root", root, o.Residue)
}

func runFakehost(ctx context.Context, bin string, args ...string) error {
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("simhost: fakehost %s: %w: %s", args[0], err, out)
	}
	return nil
}
