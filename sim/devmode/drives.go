package devmode

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gpuaas/maas-sidecar/sim/maassim"
)

// dataDrives are the simulated hosts' tenant data drives (fakehost's
// DefaultDrives without the boot disk nvme0n1).
var dataDrives = []string{"nvme1n1", "nvme2n1"}

// reinstall gives the host at root a fresh OS: everything goes but the
// data drives' bytes.
func reinstall(root string) error {
	keep := filepath.Join(filepath.Dir(root), "."+filepath.Base(root)+".drives")
	if err := os.MkdirAll(keep, 0o700); err != nil {
		return err
	}
	for _, d := range dataDrives {
		if err := os.Rename(filepath.Join(root, "dev", d), filepath.Join(keep, d)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := os.RemoveAll(root); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(root, "dev"), 0o755); err != nil {
		return err
	}
	for _, d := range dataDrives {
		if err := os.Rename(filepath.Join(keep, d), filepath.Join(root, "dev", d)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.Remove(keep)
}

// erase wipes a released host's drives as MAAS's method does, through
// the fakehost binary (dev mode never links the fakes). Under the
// simulator's erase-does-nothing fault it is not called.
func (s *Site) erase(ctx context.Context, e maassim.Erased) {
	root := filepath.Join(s.dir, e.Hostname)
	bin := filepath.Join(toolsDir(), "fakehost")
	out, err := exec.CommandContext(ctx, bin, "maas-erase", "--root", root, "--method", e.Method).CombinedOutput()
	if err != nil {
		s.log.Error("simulated disk erase failed", "host", e.Hostname, "err", err, "output", string(out))
	}
}
