package rules

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestClaimLease(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ttl := time.Minute
	live := lifecycle.Lease{SiteID: "s", Holder: "a", Epoch: 4, ExpiresAt: now.Add(time.Second)}
	lapsed := live
	lapsed.ExpiresAt = now
	kept := lapsed
	kept.RequestedBy, kept.RequestedUntil = "b", now.Add(time.Second)
	tests := []struct {
		name   string
		cur    lifecycle.Lease
		ok     bool
		holder string
		want   lifecycle.Lease
		code   lifecycle.Code
	}{
		{"first grant", lifecycle.Lease{}, false, "a", lifecycle.Lease{SiteID: "s", Holder: "a", Epoch: 1, ExpiresAt: now.Add(ttl)}, ""},
		{"own live lease keeps its epoch", live, true, "a", lifecycle.Lease{SiteID: "s", Holder: "a", Epoch: 4, ExpiresAt: now.Add(ttl)}, ""},
		{"another's live lease", live, true, "b", lifecycle.Lease{}, lifecycle.CodeConflict},
		{"lapsed lease takes the next epoch", lapsed, true, "b", lifecycle.Lease{SiteID: "s", Holder: "b", Epoch: 5, ExpiresAt: now.Add(ttl)}, ""},
		{"kept for the preferred daemon", kept, true, "a", lifecycle.Lease{}, lifecycle.CodeConflict},
		{"the preferred daemon takes it", kept, true, "b", lifecycle.Lease{SiteID: "s", Holder: "b", Epoch: 5, ExpiresAt: now.Add(ttl)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ClaimLease("op", "s", tt.holder, tt.cur, tt.ok, now, ttl)
			if code := lifecycle.ErrorCode(err); code != tt.code {
				t.Fatalf("code %q, want %q (err %v)", code, tt.code, err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("lease (-want +got):\n%s", d)
			}
		})
	}
}

func TestRenewLease(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	held := lifecycle.Lease{SiteID: "s", Holder: "a", Epoch: 4, ExpiresAt: now}
	tests := []struct {
		name string
		cur  lifecycle.Lease
		ok   bool
		code lifecycle.Code
	}{
		{"still held", held, true, ""},
		{"no lease", lifecycle.Lease{}, false, lifecycle.CodeConflict},
		{"newer epoch", lifecycle.Lease{SiteID: "s", Holder: "a", Epoch: 5}, true, lifecycle.CodeConflict},
		{"another holder", lifecycle.Lease{SiteID: "s", Holder: "b", Epoch: 4}, true, lifecycle.CodeConflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RenewLease("op", tt.cur, tt.ok, held, now, time.Minute)
			if code := lifecycle.ErrorCode(err); code != tt.code {
				t.Fatalf("code %q, want %q (err %v)", code, tt.code, err)
			}
			if err == nil && !got.ExpiresAt.Equal(now.Add(time.Minute)) {
				t.Errorf("expires %v, want %v", got.ExpiresAt, now.Add(time.Minute))
			}
		})
	}
}
