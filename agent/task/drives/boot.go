package drives

import (
	"fmt"
	"os"
	"path"
	"slices"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task/hostinfo"
)

// BootPoints are the mount points whose disks are the boot disks.
var BootPoints = []string{"/", "/boot", "/boot/efi"}

// BootDisks returns the names of the drives that hold /, /boot or
// /boot/efi, through device-mapper slaves. It fails when / is not traced
// to any drive: then no drive can be known not to be the boot disk.
func BootDisks(root hostroot.Root, all []Drive) ([]string, error) {
	ms, err := hostinfo.ReadMounts(root)
	if err != nil {
		return nil, fmt.Errorf("drives: boot disk: %w", err)
	}
	var out []string
	rootFound := false
	for _, m := range ms {
		if !slices.Contains(BootPoints, m.Point) {
			continue
		}
		for _, dev := range physical(root, m.MajorMinor) {
			for _, d := range all {
				if d.holds(dev) && !slices.Contains(out, d.Name) {
					out = append(out, d.Name)
				}
				if d.holds(dev) && m.Point == "/" {
					rootFound = true
				}
			}
		}
	}
	if !rootFound {
		return nil, fmt.Errorf("drives: the disk holding / was not found in /sys/block (mountinfo and sysfs): refusing to erase any drive")
	}
	return out, nil
}

// physical resolves MAJ:MIN to the devices under it: itself, or for a
// device-mapper or md device its slaves (recursively).
func physical(root hostroot.Root, dev string) []string {
	return physicalDepth(root, dev, 0)
}

func physicalDepth(root hostroot.Root, dev string, depth int) []string {
	out := []string{dev}
	if depth > 8 {
		return out
	}
	link, err := os.Readlink(root.Path("/sys/dev/block/" + dev))
	if err != nil {
		return out
	}
	name := path.Base(link)
	slaves, _ := os.ReadDir(root.Path(path.Join("/sys/class/block", name, "slaves")))
	for _, s := range slaves {
		if sd := sysfs(root, path.Join("/sys/class/block", s.Name()), "dev"); sd != "" {
			out = append(out, physicalDepth(root, sd, depth+1)...)
		}
	}
	return out
}
