package drives

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
)

// Drive is one whole block device of /sys/block.
type Drive struct {
	Name   string // nvme1n1
	Serial string
	Model  string
	Size   int64  // bytes
	Dev    string // "259:1"
	// Parts are the MAJ:MIN of its partitions.
	Parts []string
	// Ctrl is the NVMe controller (nvme1) of a namespace, "" otherwise.
	Ctrl string
}

// Path is the drive's device node on the host.
func (d Drive) Path() string { return "/dev/" + d.Name }

// Label names the drive in evidence and errors.
func (d Drive) Label() string {
	if d.Serial == "" {
		return d.Name
	}
	return d.Name + " (serial " + d.Serial + ")"
}

var nvmeNS = regexp.MustCompile(`^(nvme[0-9]+)n[0-9]+$`)

// virtual block devices are never drives.
var virtual = []string{"loop", "ram", "zram", "dm-", "md", "sr", "nbd"}

// List reads the host's whole block devices under root.
func List(root hostroot.Root) ([]Drive, error) {
	ents, err := os.ReadDir(root.Path("/sys/block"))
	if err != nil {
		return nil, fmt.Errorf("drives: %w", err)
	}
	var out []Drive
	for _, e := range ents {
		if isVirtual(e.Name()) {
			continue
		}
		d, err := read(root, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func isVirtual(name string) bool {
	for _, p := range virtual {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func read(root hostroot.Root, name string) (Drive, error) {
	dir := path.Join("/sys/block", name)
	d := Drive{Name: name, Serial: sysfs(root, dir, "device/serial"), Model: sysfs(root, dir, "device/model"),
		Dev: sysfs(root, dir, "dev")}
	sectors, err := strconv.ParseInt(sysfs(root, dir, "size"), 10, 64)
	if err != nil {
		return Drive{}, fmt.Errorf("drives: %s/size: not a sector count", dir)
	}
	d.Size = sectors * 512
	if m := nvmeNS.FindStringSubmatch(name); m != nil {
		d.Ctrl = m[1]
	}
	ents, _ := os.ReadDir(root.Path(dir))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), name) {
			if dev := sysfs(root, path.Join(dir, e.Name()), "dev"); dev != "" {
				d.Parts = append(d.Parts, dev)
			}
		}
	}
	return d, nil
}

// sysfs reads one attribute, trimmed; "" when absent.
func sysfs(root hostroot.Root, dir, attr string) string {
	b, err := os.ReadFile(root.Path(path.Join(dir, attr)))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// holds reports whether the device MAJ:MIN dev is d or one of its partitions.
func (d Drive) holds(dev string) bool {
	if dev == d.Dev {
		return true
	}
	for _, p := range d.Parts {
		if p == dev {
			return true
		}
	}
	return false
}
