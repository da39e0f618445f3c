package fakehost

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// QuickEraseBytes is what MAAS's quick erase zeroes at each end of a disk.
const QuickEraseBytes = 2 << 20

// MaasErase wipes the host's NVMe namespaces as MAAS's wipe-disks does
// with method: quick zeroes the first and last 2 MiB of each, full and
// secure every byte.
func MaasErase(root, method string) error {
	names, err := filepath.Glob(filepath.Join(root, "dev", "nvme*n*"))
	if err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	for _, p := range names {
		if strings.Contains(strings.TrimPrefix(filepath.Base(p), "nvme"), "p") {
			continue // a partition node
		}
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("fakehost: %w", err)
		}
		if err := wipe(p, fi.Size(), method); err != nil {
			return err
		}
	}
	return nil
}

func wipe(p string, size int64, method string) error {
	if method != "quick" || size <= 2*QuickEraseBytes {
		if err := os.Truncate(p, 0); err != nil {
			return fmt.Errorf("fakehost: %w", err)
		}
		return os.Truncate(p, size)
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("fakehost: %w", err)
	}
	defer f.Close()
	zero := make([]byte, QuickEraseBytes)
	for _, off := range []int64{0, size - QuickEraseBytes} {
		if _, err := f.WriteAt(zero, off); err != nil {
			return fmt.Errorf("fakehost: %w", err)
		}
	}
	return nil
}
