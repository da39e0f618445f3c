package gpu

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The help texts follow the layout of nvidia-smi --help-query-gpu on 590
// (section titles, quoted names with "or" aliases, free-text descriptions
// that may quote values); the 535 one lacks gpu_recovery_action.
func TestSupportedNVIDIAFieldsOnEachDriverBranch(t *testing.T) {
	known := ParseNVIDIAHelpQuery(read(t, "nvidia-help-query-gpu-590.txt"))
	if !known["gpu_bus_id"] || !known["pci.bus_id"] || known["Enabled"] || known["completed"] || known["YYYY/MM/DD HH:MM:SS.msec"] {
		t.Fatalf("fields = %v", known)
	}
	query, missing, err := SupportedNVIDIAFields(known)
	if err != nil || len(missing) != 0 || !slices.Equal(query, NVIDIAFields) {
		t.Fatalf("590: query %v missing %v err %v", query, missing, err)
	}
	query, missing, err = SupportedNVIDIAFields(ParseNVIDIAHelpQuery(read(t, "nvidia-help-query-gpu-535.txt")))
	if err != nil || !slices.Equal(missing, []string{"gpu_recovery_action"}) || slices.Contains(query, "gpu_recovery_action") {
		t.Fatalf("535: query %v missing %v err %v", query, missing, err)
	}
	// Before R535 the help lists only the older name (composed from the
	// 535 text, which gives both).
	old := strings.Replace(read(t, "nvidia-help-query-gpu-535.txt"), `"clocks_event_reasons.active" or `, "", 1)
	query, missing, err = SupportedNVIDIAFields(ParseNVIDIAHelpQuery(old))
	if err != nil || !slices.Contains(query, "clocks_throttle_reasons.active") || slices.Contains(missing, "clocks_event_reasons.active") {
		t.Fatalf("pre-535: query %v missing %v err %v", query, missing, err)
	}
	if got := olderNamesUsed(query); !slices.Equal(got, []string{"clocks_event_reasons.active read as clocks_throttle_reasons.active"}) {
		t.Errorf("older names used = %v", got)
	}
	if _, _, err := SupportedNVIDIAFields(map[string]bool{"index": true}); err == nil || !strings.Contains(err.Error(), `"uuid"`) {
		t.Errorf("a driver without uuid: %v", err)
	}
}

func TestParseNVIDIAGPUsWithoutRecoveryAction(t *testing.T) {
	var fields []string
	for _, f := range recorded {
		if f != "gpu_recovery_action" {
			fields = append(fields, f)
		}
	}
	row := "0, GPU-0a1b2c3d-0000-1111-2222-333344445550, 1654922000001, 00000000:18:00.0, NVIDIA A100-SXM4-80GB, 535.54.03, 81920, 0, Enabled, Default, Disabled, Disabled, 0, 0, [N/A], No, No, Completed, Success\n"
	devs, driver, err := ParseNVIDIAGPUs(row, fields)
	if err != nil || driver != "535.54.03" || len(devs) != 1 {
		t.Fatalf("devs %v driver %q err %v", devs, driver, err)
	}
	if devs[0].State.RecoveryAction != "" {
		t.Errorf("recovery action = %q, want unknown", devs[0].State.RecoveryAction)
	}
	if diff := cmp.Diff([]string(nil), Judge(devs[0].State, 64)); diff != "" {
		t.Errorf("absent recovery action with ECC and remap known and clean (-want +got):\n%s", diff)
	}
}
