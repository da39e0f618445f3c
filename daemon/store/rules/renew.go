package rules

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Grant opens the renewal of t, the node's newest token (ok=false when
// the node has none: not found), until `until`. A spent token cannot be
// renewed (conflict).
func Grant(op string, t lifecycle.EnrollmentToken, ok bool, until time.Time) (lifecycle.EnrollmentToken, error) {
	switch {
	case !ok, t.Purpose != lifecycle.TokenEnroll: // a bootstrap ticket is never renewed
		return t, lifecycle.Errorf(lifecycle.CodeNotFound, op, "the node has no enrollment token")
	case t.UsedAt != nil:
		return t, lifecycle.Errorf(lifecycle.CodeConflict, op, "the node's enrollment token was already used")
	case t.RenewedFrom != "":
		return t, lifecycle.Errorf(lifecycle.CodeConflict, op, "the node's enrollment token is a renewal already; it is not renewed again")
	case until.IsZero():
		return t, lifecycle.Invalid(op, "until", "a renewal grant needs an end")
	}
	t.RenewBy = &until
	return t, nil
}

// Renewal is what a backend loaded for one renewal: the presented token
// (Found=false when its hash is unknown), the hash of its node's newest
// token, the node, and the successor to store.
type Renewal struct {
	Old    lifecycle.EnrollmentToken
	Found  bool
	Newest string
	Node   lifecycle.Node
	Next   lifecycle.EnrollmentToken
}

// Renew decides the renewal of r.Old by node nodeID at now. It returns the
// old token spent (RenewedTo names its successor) and the successor to
// create, or replay=true when the same successor was stored already (the
// backend answers with it). Refused: an unknown hash (not found), another
// node's token (forbidden), and (conflict) a spent or superseded token, one
// still valid, one issued before the node's identity was cleared, a node
// that is not enrolling for the first time, and a token without an open
// grant (cause lifecycle.ErrRenewalNotGranted).
func Renew(op string, r Renewal, nodeID string, now time.Time) (old, next lifecycle.EnrollmentToken, replay bool, err error) {
	old, next = r.Old, r.Next
	conflict := func(msg string) error { return lifecycle.Errorf(lifecycle.CodeConflict, op, "%s", msg) }
	switch {
	case !r.Found, r.Old.Purpose != lifecycle.TokenEnroll: // a bootstrap ticket is never renewed
		err = lifecycle.Errorf(lifecycle.CodeNotFound, op, "unknown enrollment token")
	case old.NodeID != nodeID:
		err = lifecycle.Errorf(lifecycle.CodeForbidden, op, "enrollment token is bound to another node")
	case old.RenewedTo != "" && old.RenewedTo == next.Hash:
		return old, next, true, nil // the same renewal again: its answer was lost
	case old.UsedAt != nil:
		err = conflict("enrollment token was already used")
	case old.Hash != r.Newest:
		err = conflict("enrollment token was superseded by a newer one")
	case now.Before(old.ExpiresAt):
		err = conflict("enrollment token has not expired; enroll with it")
	case r.Node.TokenPredatesClear(old.CreatedAt):
		err = conflict("enrollment token was issued before the node's agent identity was revoked")
	case r.Node.Status != lifecycle.NodeEnrolling || r.Node.EnrolledAt != nil:
		err = conflict("the node is not waiting for its first enrollment")
	case old.RenewBy == nil || !now.Before(*old.RenewBy):
		err = &lifecycle.Error{Code: lifecycle.CodeConflict, Op: op, Err: lifecycle.ErrRenewalNotGranted}
	case next.NodeID != nodeID || next.Hash == old.Hash:
		err = lifecycle.Invalid(op, "next_token_hash", "the successor must be a new token of the same node")
	default:
		err = ValidateNewToken(op, next)
	}
	if err != nil {
		return old, next, false, err
	}
	old.UsedAt, old.RenewedTo = &now, next.Hash
	next.CreatedAt, next.UsedAt, next.UsedBy, next.RenewBy, next.RenewedTo = now, nil, "", nil, ""
	next.RenewedFrom = old.Hash
	return old, next, false, nil
}
