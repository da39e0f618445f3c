package rules

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestStampEvent(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	earlier := now.Add(-time.Minute)
	l := lifecycle.Lease{SiteID: "s", Holder: "d1", Epoch: 7}
	tests := []struct {
		name string
		in   lifecycle.RunEvent
		want lifecycle.RunEvent
		code lifecycle.Code
	}{
		{"stamped now", lifecycle.RunEvent{Stage: "x", Status: lifecycle.EventStarted, Holder: "forged", Epoch: 1},
			lifecycle.RunEvent{RunID: "r", Seq: 3, Stage: "x", Status: lifecycle.EventStarted, Holder: "d1", Epoch: 7, OccurredAt: now}, ""},
		{"the writer's time kept", lifecycle.RunEvent{Stage: "x", Status: lifecycle.EventFailed, OccurredAt: earlier},
			lifecycle.RunEvent{RunID: "r", Seq: 3, Stage: "x", Status: lifecycle.EventFailed, Holder: "d1", Epoch: 7, OccurredAt: earlier}, ""},
		{"no stage", lifecycle.RunEvent{Status: lifecycle.EventStarted}, lifecycle.RunEvent{}, lifecycle.CodeInvalid},
		{"unknown status", lifecycle.RunEvent{Stage: "x", Status: "done"}, lifecycle.RunEvent{}, lifecycle.CodeInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StampEvent(tt.in, "r", 3, now, l)
			if code := lifecycle.ErrorCode(err); code != tt.code {
				t.Fatalf("code %q, want %q (err %v)", code, tt.code, err)
			}
			if err != nil {
				return
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("event (-want +got):\n%s", d)
			}
		})
	}
}
