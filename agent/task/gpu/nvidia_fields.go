package gpu

import (
	"fmt"
	"slices"
	"strings"
)

// nvidiaIdentity are the fields without which a row names no GPU: a
// driver that lacks one of them cannot be scrubbed.
var nvidiaIdentity = []string{"index", "uuid", "pci.bus_id"}

// ParseNVIDIAHelpQuery reads nvidia-smi --help-query-gpu: every line that
// starts with a double quote names a field and its aliases
// (`"pci.bus_id" or "gpu_bus_id"`); descriptions and section titles do not
// start with one.
func ParseNVIDIAHelpQuery(out string) map[string]bool {
	known := map[string]bool{}
	for _, line := range lines(out) {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, `"`) {
			continue
		}
		for i, part := range strings.Split(t, `"`) {
			if i%2 == 1 && part != "" {
				known[part] = true
			}
		}
	}
	return known
}

// SupportedNVIDIAFields splits NVIDIAFields into those the driver knows
// and those it does not, in NVIDIAFields order. A driver missing an
// identity field is an error.
func SupportedNVIDIAFields(known map[string]bool) (query, missing []string, err error) {
	for _, f := range NVIDIAFields {
		if known[f] {
			query = append(query, f)
		} else {
			missing = append(missing, f)
		}
	}
	for _, f := range nvidiaIdentity {
		if slices.Contains(missing, f) {
			return nil, missing, fmt.Errorf("nvidia-smi: the driver does not offer the field %q", f)
		}
	}
	return query, missing, nil
}

// absentFieldRule is the rule the evidence states for fields the driver
// does not offer.
const absentFieldRule = "fields this driver does not offer are unknown: a count or pending flag that is unknown fails the GPU; " +
	"gpu_recovery_action (added at R570) absent passes when ECC, page retirement and row remapping are known and clean"
