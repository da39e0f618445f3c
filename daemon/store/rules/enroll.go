package rules

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// ValidateNewToken checks an enrollment token about to be stored: a hash,
// a node and an expiry (invalid otherwise).
func ValidateNewToken(op string, t lifecycle.EnrollmentToken) error {
	if t.Hash == "" || t.NodeID == "" || t.ExpiresAt.IsZero() {
		return lifecycle.Invalid(op, "token", "an enrollment token needs a hash, a node and an expiry")
	}
	if t.Purpose != lifecycle.TokenEnroll && t.Purpose != lifecycle.TokenBootstrap {
		return lifecycle.Invalid(op, "purpose", "token purpose %q is not enrollment or bootstrap", t.Purpose)
	}
	return nil
}

// Supersede returns the node's previous token old superseded by the
// token hashed by at now, and write=false when it needs no change (used,
// or superseded already): only the newest token of a node works. An
// unused token's expiry is kept in SupersededExpiry and its ExpiresAt
// moved to now (when later), so every expiry check refuses it; Reinstate
// can restore it.
func Supersede(old lifecycle.EnrollmentToken, by string, now time.Time) (lifecycle.EnrollmentToken, bool) {
	if old.UsedAt != nil || old.SupersededBy != "" {
		return old, false
	}
	exp := old.ExpiresAt
	old.SupersededBy, old.SupersededExpiry = by, &exp
	if now.Before(old.ExpiresAt) {
		old.ExpiresAt = now
	}
	return old, true
}

// Consume decides node nodeID's use of token t (ok=false when the hash is
// unknown: not found) for the key keyID at now. A token bound to another
// node is forbidden; an expired or already used one a conflict, except
// that the same key again gets t back with write=false (its answer was
// lost). Otherwise it returns t marked used. An expired token's error has
// lifecycle.ErrEnrollmentTokenExpired as its cause: the agent may ask to
// renew it (see Renew).
func Consume(op string, t lifecycle.EnrollmentToken, ok bool, nodeID, keyID string, now time.Time) (out lifecycle.EnrollmentToken, write bool, err error) {
	switch {
	case !ok, t.Purpose != lifecycle.TokenEnroll: // a bootstrap ticket cannot enroll
		return t, false, lifecycle.Errorf(lifecycle.CodeNotFound, op, "unknown enrollment token")
	case t.NodeID != nodeID:
		return t, false, lifecycle.Errorf(lifecycle.CodeForbidden, op, "enrollment token is bound to another node")
	case !now.Before(t.ExpiresAt):
		return t, false, &lifecycle.Error{Code: lifecycle.CodeConflict, Op: op, Err: lifecycle.ErrEnrollmentTokenExpired}
	case t.UsedAt != nil && keyID != "" && t.UsedBy == keyID:
		return t, false, nil // the same key again: an answer was lost
	case t.UsedAt != nil:
		return t, false, lifecycle.Errorf(lifecycle.CodeConflict, op, "enrollment token was already used")
	}
	t.UsedAt, t.UsedBy = &now, keyID
	return t, true, nil
}
