package rules

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestTransition(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	enrolling := lifecycle.Node{ID: "n", Status: lifecycle.NodeEnrolling, IdentityRetained: true}
	active := enrolling
	active.Status = lifecycle.NodeActive
	move := lifecycle.NodeTransition{NodeID: "n", From: lifecycle.NodeEnrolling, To: lifecycle.NodeActive,
		Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOnboarding}}
	tests := []struct {
		name  string
		cur   lifecycle.Node
		t     lifecycle.NodeTransition
		write bool
		code  lifecycle.Code
	}{
		{"allowed", enrolling, move, true, ""},
		{"replayed after it took effect", active, move, false, ""},
		{"not in the from state", lifecycle.Node{ID: "n", Status: lifecycle.NodeOffline}, move, false, lifecycle.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, write, err := Transition("op", tt.cur, tt.t, now)
			if code := lifecycle.ErrorCode(err); code != tt.code || write != tt.write {
				t.Fatalf("code %q write %v, want %q %v (err %v)", code, write, tt.code, tt.write, err)
			}
			if write && (got.Status != tt.t.To || !got.UpdatedAt.Equal(now)) {
				t.Errorf("node %+v, want %s updated at %v", got, tt.t.To, now)
			}
		})
	}
}

func TestUpdateNode(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	old := lifecycle.Node{ID: "n", SiteID: "s", Hostname: "gpu-1", Status: lifecycle.NodeActive, CreatedAt: now.Add(-time.Hour)}
	tests := []struct {
		name   string
		old    lifecycle.Node
		fn     func(*lifecycle.Node)
		rehost bool
		code   lifecycle.Code
	}{
		{"same name in other case", old, func(n *lifecycle.Node) { n.Hostname = "GPU-1" }, false, ""},
		{"renamed", old, func(n *lifecycle.Node) { n.Hostname = "gpu-2" }, true, ""},
		{"blank name", old, func(n *lifecycle.Node) { n.Hostname = " " }, false, lifecycle.CodeInvalid},
		{"status only by transition", old, func(n *lifecycle.Node) { n.Status = lifecycle.NodeOffline }, false, lifecycle.CodeInvalid},
		{"identity not restored", old, func(n *lifecycle.Node) { n.IdentityRetained = true }, false, lifecycle.CodeConflict},
		{"deleted is final", lifecycle.Node{ID: "n", Status: lifecycle.NodeDeleted}, func(*lifecycle.Node) {}, false, lifecycle.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rehost, err := UpdateNode("op", tt.old, func(n *lifecycle.Node) error { tt.fn(n); return nil }, now)
			if code := lifecycle.ErrorCode(err); code != tt.code || rehost != tt.rehost {
				t.Fatalf("code %q rehost %v, want %q %v (err %v)", code, rehost, tt.code, tt.rehost, err)
			}
			if err == nil && (!got.CreatedAt.Equal(old.CreatedAt) || !got.UpdatedAt.Equal(now)) {
				t.Errorf("created %v updated %v", got.CreatedAt, got.UpdatedAt)
			}
		})
	}
}

func TestCheckDeleteUnenrolled(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name string
		n    lifecycle.Node
		code lifecycle.Code
	}{
		{"never enrolled", lifecycle.Node{ID: "n", Status: lifecycle.NodeEnrolling}, ""},
		{"agent enrolled", lifecycle.Node{ID: "n", Status: lifecycle.NodeEnrolling, EnrolledAt: &now}, lifecycle.CodeConflict},
		{"agent certificate issued", lifecycle.Node{ID: "n", Status: lifecycle.NodeEnrolling, AgentCertSerial: "01"}, lifecycle.CodeConflict},
		{"active", lifecycle.Node{ID: "n", Status: lifecycle.NodeActive}, lifecycle.CodeConflict},
		{"bootstrap issued", lifecycle.Node{ID: "n", Status: lifecycle.NodeBootstrapIssued}, lifecycle.CodeConflict},
	}
	for _, tt := range tests {
		if code := lifecycle.ErrorCode(CheckDeleteUnenrolled("op", tt.n)); code != tt.code {
			t.Errorf("%s: code %q, want %q", tt.name, code, tt.code)
		}
	}
}
