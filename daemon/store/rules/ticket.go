package rules

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ConsumeTicket decides the fetch of bootstrap ticket t (ok=false when
// the hash is unknown) at now: a hash that is unknown or not a ticket is
// not found; an expired (or superseded) ticket, or one fetched already,
// is a conflict. There is no replay: a ticket serves one fetch. It
// returns t marked used.
func ConsumeTicket(op string, t lifecycle.EnrollmentToken, ok bool, now time.Time) (lifecycle.EnrollmentToken, error) {
	switch {
	case !ok, t.Purpose != lifecycle.TokenBootstrap:
		return t, lifecycle.Errorf(lifecycle.CodeNotFound, op, "unknown bootstrap ticket")
	case t.UsedAt != nil:
		return t, lifecycle.Errorf(lifecycle.CodeConflict, op,
			"bootstrap ticket was already used at %s: a ticket fetches its script once; issue a new one", t.UsedAt.UTC().Format(time.RFC3339))
	case !now.Before(t.ExpiresAt):
		return t, lifecycle.Errorf(lifecycle.CodeConflict, op,
			"bootstrap ticket expired at %s (or a newer ticket replaced it); issue a new one", t.ExpiresAt.UTC().Format(time.RFC3339))
	}
	t.UsedAt = &now
	return t, nil
}
