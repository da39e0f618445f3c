package rules

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestConsume(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fresh := lifecycle.EnrollmentToken{Hash: "h", NodeID: "n", ExpiresAt: now.Add(time.Minute)}
	used := fresh
	used.UsedAt, used.UsedBy = &now, "k1"
	expired := fresh
	expired.ExpiresAt = now
	ticket := fresh
	ticket.Purpose = lifecycle.TokenBootstrap
	tests := []struct {
		name  string
		tok   lifecycle.EnrollmentToken
		ok    bool
		node  string
		key   string
		write bool
		code  lifecycle.Code
	}{
		{"first use", fresh, true, "n", "k1", true, ""},
		{"unknown", lifecycle.EnrollmentToken{}, false, "n", "k1", false, lifecycle.CodeNotFound},
		{"another node", fresh, true, "m", "k1", false, lifecycle.CodeForbidden},
		{"expired", expired, true, "n", "k1", false, lifecycle.CodeConflict},
		{"the same key again", used, true, "n", "k1", false, ""},
		{"another key", used, true, "n", "k2", false, lifecycle.CodeConflict},
		{"no key twice", used, true, "n", "", false, lifecycle.CodeConflict},
		{"a bootstrap ticket", ticket, true, "n", "k1", false, lifecycle.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, write, err := Consume("op", tt.tok, tt.ok, tt.node, tt.key, now)
			if code := lifecycle.ErrorCode(err); code != tt.code || write != tt.write {
				t.Fatalf("code %q write %v, want %q %v (err %v)", code, write, tt.code, tt.write, err)
			}
			if write && (got.UsedAt == nil || !got.UsedAt.Equal(now) || got.UsedBy != tt.key) {
				t.Errorf("token %+v not marked used by %s at %v", got, tt.key, now)
			}
		})
	}
}

func TestSupersede(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	live := lifecycle.EnrollmentToken{Hash: "h", NodeID: "n", ExpiresAt: now.Add(time.Minute)}
	got, write := Supersede(live, "h2", now)
	if !write || !got.ExpiresAt.Equal(now) || got.SupersededBy != "h2" || got.SupersededExpiry == nil ||
		!got.SupersededExpiry.Equal(live.ExpiresAt) {
		t.Errorf("live token: %+v write %v, want expired now, its expiry kept", got, write)
	}
	if _, write := Supersede(got, "h3", now); write {
		t.Error("a superseded token was superseded again")
	}
	used := live
	used.UsedAt = &now
	if _, write := Supersede(used, "h2", now); write {
		t.Error("a used token was rewritten")
	}
}
