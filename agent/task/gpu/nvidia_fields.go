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

// nvidiaOlderNames are the names older driver branches give a field:
// before R535 the clock event reasons were "clocks_throttle_reasons" and
// --help-query-gpu lists only that name.
var nvidiaOlderNames = map[string]string{"clocks_event_reasons.active": "clocks_throttle_reasons.active"}

// canonicalNVIDIA is the NVIDIAFields name of a field asked for under an
// older name.
func canonicalNVIDIA(f string) string {
	for name, old := range nvidiaOlderNames {
		if f == old {
			return name
		}
	}
	return f
}

// olderNamesUsed lists, for the evidence, each field query asks for
// under an older name.
func olderNamesUsed(query []string) []string {
	var out []string
	for _, f := range query {
		if c := canonicalNVIDIA(f); c != f {
			out = append(out, c+" read as "+f)
		}
	}
	return out
}

// SupportedNVIDIAFields splits NVIDIAFields into those the driver knows
// (under its current name, else an older one, which query then holds)
// and those it does not, in NVIDIAFields order. A driver missing an
// identity field is an error.
func SupportedNVIDIAFields(known map[string]bool) (query, missing []string, err error) {
	for _, f := range NVIDIAFields {
		switch old := nvidiaOlderNames[f]; {
		case known[f]:
			query = append(query, f)
		case old != "" && known[old]:
			query = append(query, old)
		default:
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
	"gpu_recovery_action (added at R570) absent passes when the uncorrectable ECC count and the pending page retirement or row remap flag (whichever the GPU has) are known and clean; " +
	"the settings fields (power.limit, power.default_limit, ecc.mode.*, accounting.mode) and pcie.link.gen.* absent are recorded as unknown and not judged; " +
	"a field offered only under an older name (\"clocks_event_reasons.active read as clocks_throttle_reasons.active\", before R535) is read under that name"
