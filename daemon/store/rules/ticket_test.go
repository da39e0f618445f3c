package rules

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestConsumeTicket(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fresh := lifecycle.EnrollmentToken{Hash: "h", NodeID: "n", ExpiresAt: now.Add(time.Minute), Purpose: lifecycle.TokenBootstrap}
	used, expired, token := fresh, fresh, fresh
	used.UsedAt = &now
	expired.ExpiresAt = now
	token.Purpose = lifecycle.TokenEnroll
	tests := []struct {
		name string
		tok  lifecycle.EnrollmentToken
		ok   bool
		code lifecycle.Code
	}{
		{"first fetch", fresh, true, ""},
		{"unknown", lifecycle.EnrollmentToken{}, false, lifecycle.CodeNotFound},
		{"an enrollment token", token, true, lifecycle.CodeNotFound},
		{"second fetch", used, true, lifecycle.CodeConflict},
		{"expired", expired, true, lifecycle.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ConsumeTicket("op", tt.tok, tt.ok, now)
			if code := lifecycle.ErrorCode(err); code != tt.code {
				t.Fatalf("code %q, want %q (err %v)", code, tt.code, err)
			}
			if err == nil && (got.UsedAt == nil || !got.UsedAt.Equal(now)) {
				t.Fatalf("a fetched ticket must record its use: %+v", got)
			}
		})
	}
}

func TestValidateNewTokenPurpose(t *testing.T) {
	tok := lifecycle.EnrollmentToken{Hash: "h", NodeID: "n", ExpiresAt: time.Unix(1, 0), Purpose: "other"}
	if code := lifecycle.ErrorCode(ValidateNewToken("op", tok)); code != lifecycle.CodeInvalid {
		t.Fatalf("an unknown purpose: code %q, want invalid", code)
	}
	tok.Purpose = lifecycle.TokenBootstrap
	if err := ValidateNewToken("op", tok); err != nil {
		t.Fatalf("a bootstrap ticket: %v", err)
	}
}
