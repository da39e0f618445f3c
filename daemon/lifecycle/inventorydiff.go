package lifecycle

import (
	"fmt"
	"strings"
)

// DiffBOM lists, one readable line each, how now differs from was: a GPU,
// drive or NIC missing or new (GPUs and drives by serial, or UUID for a
// GPU without one; NICs by MAC), and a changed GPU UUID, VBIOS or board
// part number, drive model or firmware, NIC firmware, BIOS or BMC
// version. A value either side did not give (empty) is not a change.
func DiffBOM(was, now BOM) []string {
	var out []string
	out = append(out, diffGPUs(was.GPUs, now.GPUs)...)
	out = append(out, diffDrives(was.Drives, now.Drives)...)
	out = append(out, diffNICs(was.NICs, now.NICs)...)
	out = changed(out, "BIOS version", was.BIOSVersion, now.BIOSVersion)
	return changed(out, "BMC firmware", was.BMCVersion, now.BMCVersion)
}

func gpuKey(g BOMGPU) string {
	if g.Serial != "" {
		return "serial " + g.Serial
	}
	return "uuid " + g.UUID
}

func diffGPUs(was, now []BOMGPU) []string {
	var out []string
	for _, w := range was {
		n, ok := find(now, w, gpuKey)
		if !ok {
			out = append(out, fmt.Sprintf("GPU %s (%s, %s, bus %s) is missing", gpuKey(w), w.UUID, w.Model, w.BusID))
			continue
		}
		id := "GPU " + gpuKey(w)
		out = changed(out, id+" UUID", w.UUID, n.UUID)
		out = changed(out, id+" VBIOS", w.VBIOS, n.VBIOS)
		out = changed(out, id+" board part number", w.BoardPartNumber, n.BoardPartNumber)
	}
	for _, n := range now {
		if _, ok := find(was, n, gpuKey); !ok {
			out = append(out, fmt.Sprintf("GPU %s (%s, %s, bus %s) is new", gpuKey(n), n.UUID, n.Model, n.BusID))
		}
	}
	return out
}

func diffDrives(was, now []BOMDrive) []string {
	key := func(d BOMDrive) string { return d.Serial }
	var out []string
	for _, w := range was {
		n, ok := find(now, w, key)
		if !ok {
			out = append(out, fmt.Sprintf("drive serial %s (%s, %s) is missing", w.Serial, w.Name, w.Model))
			continue
		}
		out = changed(out, "drive serial "+w.Serial+" model", w.Model, n.Model)
		out = changed(out, "drive serial "+w.Serial+" firmware", w.Firmware, n.Firmware)
	}
	for _, n := range now {
		if _, ok := find(was, n, key); !ok {
			out = append(out, fmt.Sprintf("drive serial %s (%s, %s) is new", n.Serial, n.Name, n.Model))
		}
	}
	return out
}

func diffNICs(was, now []BOMNIC) []string {
	key := func(n BOMNIC) string { return strings.ToLower(n.MAC) }
	var out []string
	for _, w := range was {
		n, ok := find(now, w, key)
		if !ok {
			out = append(out, fmt.Sprintf("NIC %s (%s, %s) is missing", w.MAC, w.Name, w.PCIAddress))
			continue
		}
		out = changed(out, "NIC "+w.MAC+" firmware", w.Firmware, n.Firmware)
	}
	for _, n := range now {
		if _, ok := find(was, n, key); !ok {
			out = append(out, fmt.Sprintf("NIC %s (%s, %s) is new", n.MAC, n.Name, n.PCIAddress))
		}
	}
	return out
}

// find returns the item of list with x's key; an empty key matches none.
func find[T any](list []T, x T, key func(T) string) (T, bool) {
	k := key(x)
	for _, y := range list {
		if k != "" && key(y) == k {
			return y, true
		}
	}
	var zero T
	return zero, false
}

func changed(out []string, what, was, now string) []string {
	if now == "" || was == "" || was == now {
		return out
	}
	return append(out, fmt.Sprintf("%s changed: %s -> %s", what, was, now))
}
