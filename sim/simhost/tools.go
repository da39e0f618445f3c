package simhost

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
)

// DefaultResidue is the tenant residue a dev-mode host boots with, for a
// decommission to find and clear (fakehost residue's JSON).
const DefaultResidue = `{"user":"tenant1","process":true,"session":true,"weka_mount":"/mnt/weka","gpu_memory_mib":4096,"scratch_file":true}`

// provision lays out the host's base files, its GPUs and the fake host
// tools by running the fakehost binary in o.ToolsDir, then injects
// o.Residue. The daemon never links the fakes: they are separate binaries
// that `make build` puts beside it. Without them the host boots bare (no
// GPUs, no host tools), which is logged.
func provision(ctx context.Context, root string, o Options, log *slog.Logger) error {
	if o.ToolsDir == "" {
		return nil
	}
	bin := filepath.Join(o.ToolsDir, "fakehost")
	if _, err := os.Stat(bin); err != nil {
		log.Warn("no fake host tools beside the daemon (run make build): the simulated host has no GPUs and no host tools", "err", err)
		return nil
	}
	gpus := o.GPUs
	if gpus == "" {
		gpus = "nvidia:8"
	}
	if err := fakehost(ctx, bin, "provision", "--root", root, "--gpus", gpus, "--tools-dir", o.ToolsDir); err != nil {
		return err
	}
	if o.Residue == "" {
		return nil
	}
	return fakehost(ctx, bin, "residue", "--root", root, o.Residue)
}

func fakehost(ctx context.Context, bin string, args ...string) error {
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("simhost: fakehost %s: %w: %s", args[0], err, out)
	}
	return nil
}
