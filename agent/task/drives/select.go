package drives

import (
	"fmt"
	"slices"

	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Select returns the drives the policy names, never a boot disk. A policy
// that names a boot disk by serial or model is refused whole: the error
// names the disk, and no drive is selected.
func Select(p wire.DrivePolicy, all []Drive, boot []string) ([]Drive, error) {
	var out []Drive
	for _, d := range all {
		named := (d.Serial != "" && slices.Contains(p.Serials, d.Serial)) || (d.Model != "" && slices.Contains(p.Models, d.Model))
		isBoot := slices.Contains(boot, d.Name)
		switch {
		case named && isBoot:
			return nil, fmt.Errorf("drives: %s holds the operating system (/, /boot): it is never a tenant drive, whatever the policy says; remove it from tenant_drives", d.Label())
		case isBoot:
		case named || (p.AllNVMe && d.Ctrl != ""):
			out = append(out, d)
		}
	}
	return out, nil
}

// Exclusive reports whether every namespace of d's controller is among
// sel: only then may a controller-wide sanitize or format run.
func Exclusive(d Drive, all, sel []Drive) bool {
	if d.Ctrl == "" {
		return false
	}
	for _, o := range all {
		if o.Ctrl == d.Ctrl && !slices.ContainsFunc(sel, func(s Drive) bool { return s.Name == o.Name }) {
			return false
		}
	}
	return true
}
