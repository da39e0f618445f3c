package rules

import (
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestReinstate(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	exp := now.Add(time.Hour)
	first := lifecycle.EnrollmentToken{Hash: "h1", NodeID: "n", ExpiresAt: exp, Purpose: lifecycle.TokenEnroll}
	newest := lifecycle.EnrollmentToken{Hash: "h2", NodeID: "n", ExpiresAt: now.Add(2 * time.Hour), Purpose: lifecycle.TokenEnroll}
	old, _ := Supersede(first, "h2", now.Add(-time.Minute))
	got, next, write, err := Reinstate("op", old, true, newest, "n", now)
	if err != nil || !write || !got.ExpiresAt.Equal(exp) || got.SupersededBy != "" || got.SupersededExpiry != nil {
		t.Fatalf("reinstated %+v write %v err %v, want its own expiry back", got, write, err)
	}
	if next.SupersededBy != "h1" || !next.ExpiresAt.Equal(now) {
		t.Errorf("newest after the reinstatement %+v, want superseded by h1 now", next)
	}
	if _, _, write, err := Reinstate("op", got, true, got, "n", now); err != nil || write {
		t.Errorf("again: write %v err %v, want an answer without a write", write, err)
	}
	usedNewest := newest
	usedNewest.UsedAt = &now
	used := old
	used.UsedAt = &now
	other, _ := Supersede(first, "h9", now)
	ticket := old
	ticket.Purpose = lifecycle.TokenBootstrap
	for _, c := range []struct {
		name   string
		t      lifecycle.EnrollmentToken
		found  bool
		newest lifecycle.EnrollmentToken
		node   string
		code   lifecycle.Code
	}{
		{"unknown hash", old, false, newest, "n", lifecycle.CodeNotFound},
		{"bootstrap ticket", ticket, true, newest, "n", lifecycle.CodeNotFound},
		{"another node", old, true, newest, "m", lifecycle.CodeForbidden},
		{"used", used, true, newest, "n", lifecycle.CodeConflict},
		{"never superseded", first, true, newest, "n", lifecycle.CodeConflict},
		{"superseded by another token", other, true, newest, "n", lifecycle.CodeConflict},
		{"newest used", old, true, usedNewest, "n", lifecycle.CodeConflict},
	} {
		if _, _, write, err := Reinstate("op", c.t, c.found, c.newest, c.node, now); lifecycle.ErrorCode(err) != c.code || write {
			t.Errorf("%s: write %v err %v, want %s", c.name, write, err, c.code)
		}
	}
}
