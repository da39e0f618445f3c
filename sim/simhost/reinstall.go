package simhost

import (
	"errors"
	"os"
	"path/filepath"
)

// DataDrives are the simulated hosts' tenant data drives (fakehost's
// default drives without the boot disk nvme0n1).
var DataDrives = []string{"nvme1n1", "nvme2n1"}

// Reinstall gives the host at root a fresh OS, as a redeploy does:
// everything goes but the data drives' bytes, which only an erase clears.
func Reinstall(root string) error {
	keep := filepath.Join(filepath.Dir(root), "."+filepath.Base(root)+".drives")
	if err := os.MkdirAll(keep, 0o700); err != nil {
		return err
	}
	for _, d := range DataDrives {
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
	for _, d := range DataDrives {
		if err := os.Rename(filepath.Join(keep, d), filepath.Join(root, "dev", d)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.Remove(keep)
}
