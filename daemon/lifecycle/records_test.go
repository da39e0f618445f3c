package lifecycle

import "testing"

func TestEnumsValid(t *testing.T) {
	tests := []struct {
		name  string
		valid func() bool
		want  bool
	}{
		{"role admin", RoleAdmin.Valid, true},
		{"role viewer", RoleViewer.Valid, true},
		{"role in upper case", Role("ADMIN").Valid, false},
		{"empty role", Role("").Valid, false},
		{"node state active", NodeActive.Valid, true},
		{"unknown node state", NodeState("gone").Valid, false},
		{"job state running", JobRunning.Valid, true},
		{"unknown job state", JobState("done").Valid, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.valid(); got != tt.want {
				t.Errorf("Valid() = %v, want %v", got, tt.want)
			}
		})
	}
}
