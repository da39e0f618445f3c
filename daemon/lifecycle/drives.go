package lifecycle

import "slices"

// TenantDrives is the site policy's choice of tenant data drives: by
// serial, by model, or every NVMe namespace. The disk the OS runs from
// is never one: the agent refuses it whatever this says.
type TenantDrives struct {
	Serials []string `json:"serials,omitempty"`
	Models  []string `json:"models,omitempty"`
	AllNVMe bool     `json:"all_nvme,omitempty"`
	// Filesystem (ext4 or xfs) is made on an erased drive that had no
	// filesystem mounted; one that had gets its own back.
	Filesystem string `json:"filesystem,omitempty"`
	// Canaries per drive (0: 8, at most 64).
	Canaries int `json:"canaries,omitempty"`
}

func (t *TenantDrives) validate(op string) error {
	if t == nil {
		return nil
	}
	switch {
	case !t.AllNVMe && len(t.Serials) == 0 && len(t.Models) == 0:
		return Invalid(op, "tenant_drives", "tenant_drives names no drive: give serials, models or all_nvme")
	case t.Filesystem != "" && !slices.Contains([]string{"ext4", "xfs"}, t.Filesystem):
		return Invalid(op, "tenant_drives.filesystem", "tenant_drives.filesystem %q is not ext4 or xfs", t.Filesystem)
	case t.Canaries < 0 || t.Canaries > 64:
		return Invalid(op, "tenant_drives.canaries", "tenant_drives.canaries %d is outside 0-64", t.Canaries)
	}
	for _, s := range append(slices.Clone(t.Serials), t.Models...) {
		if s == "" {
			return Invalid(op, "tenant_drives", "tenant_drives has an empty serial or model")
		}
	}
	return nil
}

// EraseCovers says what a MAAS release erase mode overwrites.
func EraseCovers(m EraseMode) string {
	switch m {
	case EraseQuick:
		return "the first and last 2 MiB of each disk (partition tables and filesystem headers only; data in between stays)"
	case EraseSecure:
		return "each disk's own secure erase where it has one, else a full overwrite"
	}
	return "nothing: MAAS was asked for no erase"
}
