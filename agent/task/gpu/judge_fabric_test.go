package gpu

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// On NVSwitch boards the fabric must be registered (Completed) and
// healthy (Success); a board without NVSwitch says Not supported.
func TestJudgeFabricStateAndStatus(t *testing.T) {
	devs, _, err := ParseNVIDIAGPUs(read(t, "nvidia-query-clean.csv"), recorded)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		state, status string
		want          []string
	}{
		{"Completed", "Success", nil},
		{"Not supported", "Not supported", nil},
		{"Completed", "Failure", []string{"fabric status Failure"}},
		{"In Progress", "N/A", []string{"fabric state In Progress"}},
		{"Not Started", "N/A", []string{"fabric state Not Started"}},
	}
	for _, tt := range tests {
		s := devs[0].State
		s.FabricState, s.FabricStatus = tt.state, tt.status
		if diff := cmp.Diff(tt.want, Judge(s, 64)); diff != "" {
			t.Errorf("%s/%s (-want +got):\n%s", tt.state, tt.status, diff)
		}
	}
}
