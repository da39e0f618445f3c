package rules

import (
	"errors"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestGrant(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tok := lifecycle.EnrollmentToken{Hash: "h", NodeID: "n", ExpiresAt: now}
	got, err := Grant("op", tok, true, now.Add(time.Hour))
	if err != nil || got.RenewBy == nil || !got.RenewBy.Equal(now.Add(time.Hour)) {
		t.Fatalf("grant = %+v, %v", got, err)
	}
	used := tok
	used.UsedAt = &now
	ticket := tok
	ticket.Purpose = lifecycle.TokenBootstrap
	successor := tok
	successor.RenewedFrom = "h0"
	for name, c := range map[string]struct {
		tok   lifecycle.EnrollmentToken
		ok    bool
		until time.Time
		code  lifecycle.Code
	}{
		"no token":    {tok, false, now, lifecycle.CodeNotFound},
		"a ticket":    {ticket, true, now.Add(time.Hour), lifecycle.CodeNotFound},
		"a successor": {successor, true, now.Add(time.Hour), lifecycle.CodeConflict},
		"spent":       {used, true, now, lifecycle.CodeConflict},
		"no end":      {tok, true, time.Time{}, lifecycle.CodeInvalid},
	} {
		if _, err := Grant("op", c.tok, c.ok, c.until); lifecycle.ErrorCode(err) != c.code {
			t.Errorf("%s: %v, want %s", name, err, c.code)
		}
	}
}

func TestRenew(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	later, earlier := now.Add(time.Minute), now.Add(-time.Minute)
	base := Renewal{Found: true, Newest: "h",
		Old:  lifecycle.EnrollmentToken{Hash: "h", NodeID: "n", ExpiresAt: earlier, CreatedAt: earlier.Add(-time.Hour), RenewBy: &later},
		Node: lifecycle.Node{ID: "n", Status: lifecycle.NodeEnrolling},
		Next: lifecycle.EnrollmentToken{Hash: "h2", NodeID: "n", ExpiresAt: now.Add(time.Hour)}}
	with := func(f func(r *Renewal)) Renewal { r := base; f(&r); return r }
	tests := []struct {
		name   string
		r      Renewal
		node   string
		code   lifecycle.Code
		replay bool
	}{
		{"granted", base, "n", "", false},
		{"unknown", with(func(r *Renewal) { r.Found = false }), "n", lifecycle.CodeNotFound, false},
		{"another node", base, "m", lifecycle.CodeForbidden, false},
		{"a bootstrap ticket", with(func(r *Renewal) { r.Old.Purpose = lifecycle.TokenBootstrap }), "n", lifecycle.CodeNotFound, false},
		{"the same successor again", with(func(r *Renewal) { r.Old.UsedAt, r.Old.RenewedTo = &earlier, "h2" }), "n", "", true},
		{"spent by another renewal", with(func(r *Renewal) { r.Old.UsedAt, r.Old.RenewedTo = &earlier, "h3" }), "n", lifecycle.CodeConflict, false},
		{"spent by an enrollment", with(func(r *Renewal) { r.Old.UsedAt, r.Old.UsedBy = &earlier, "k" }), "n", lifecycle.CodeConflict, false},
		{"superseded", with(func(r *Renewal) { r.Newest = "h9" }), "n", lifecycle.CodeConflict, false},
		{"not expired", with(func(r *Renewal) { r.Old.ExpiresAt = later }), "n", lifecycle.CodeConflict, false},
		{"issued before a revoke", with(func(r *Renewal) { r.Node.IdentityClearedAt = &earlier }), "n", lifecycle.CodeConflict, false},
		{"node active", with(func(r *Renewal) { r.Node.Status = lifecycle.NodeActive }), "n", lifecycle.CodeConflict, false},
		{"node enrolled once", with(func(r *Renewal) { r.Node.EnrolledAt = &earlier }), "n", lifecycle.CodeConflict, false},
		{"no grant", with(func(r *Renewal) { r.Old.RenewBy = nil }), "n", lifecycle.CodeConflict, false},
		{"grant closed", with(func(r *Renewal) { r.Old.RenewBy = &now }), "n", lifecycle.CodeConflict, false},
		{"successor of another node", with(func(r *Renewal) { r.Next.NodeID = "m" }), "n", lifecycle.CodeInvalid, false},
		{"successor is the token", with(func(r *Renewal) { r.Next.Hash = "h" }), "n", lifecycle.CodeInvalid, false},
		{"successor without expiry", with(func(r *Renewal) { r.Next.ExpiresAt = time.Time{} }), "n", lifecycle.CodeInvalid, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, next, replay, err := Renew("op", tt.r, tt.node, now)
			if code := lifecycle.ErrorCode(err); code != tt.code || replay != tt.replay {
				t.Fatalf("code %q replay %v, want %q %v (err %v)", code, replay, tt.code, tt.replay, err)
			}
			if tt.code != "" || replay {
				return
			}
			if old.UsedAt == nil || !old.UsedAt.Equal(now) || old.RenewedTo != "h2" || !next.CreatedAt.Equal(now) || next.RenewBy != nil ||
				next.RenewedFrom != "h" {
				t.Fatalf("old %+v next %+v", old, next)
			}
		})
	}
	_, _, _, err := Renew("op", with(func(r *Renewal) { r.Old.RenewBy = nil }), "n", now)
	if !errors.Is(err, lifecycle.ErrRenewalNotGranted) {
		t.Fatalf("no grant: %v, want ErrRenewalNotGranted", err)
	}
	_, _, err = Consume("op", base.Old, true, "n", "k", now)
	if !errors.Is(err, lifecycle.ErrEnrollmentTokenExpired) {
		t.Fatalf("expired consume: %v, want ErrEnrollmentTokenExpired", err)
	}
}
