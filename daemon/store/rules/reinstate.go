package rules

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Reinstate decides the reinstatement of t (found=false when its hash is
// unknown: not found), a token of node nodeID that the node's newest
// token newest superseded, at now: a deploy whose answer was lost was
// applied late with t's payload, after a retry issued newest for a
// deploy MAAS refused. It returns t with its original expiry back and
// newest superseded by it; write=false when t is the newest already
// (reinstated before: its answer was lost). Refused: another node's
// token (forbidden), a bootstrap ticket (not found), and (conflict) a
// used token, one that newest did not supersede, and a newest already
// used (its agent enrolled). At most one token of a node works still.
func Reinstate(op string, t lifecycle.EnrollmentToken, found bool, newest lifecycle.EnrollmentToken, nodeID string,
	now time.Time) (old, next lifecycle.EnrollmentToken, write bool, err error) {
	conflict := func(msg string) error { return lifecycle.Errorf(lifecycle.CodeConflict, op, "%s", msg) }
	switch {
	case !found, t.Purpose != lifecycle.TokenEnroll:
		return t, newest, false, lifecycle.Errorf(lifecycle.CodeNotFound, op, "unknown enrollment token")
	case t.NodeID != nodeID:
		return t, newest, false, lifecycle.Errorf(lifecycle.CodeForbidden, op, "enrollment token is bound to another node")
	case t.Hash == newest.Hash && t.SupersededBy == "":
		return t, newest, false, nil
	case t.UsedAt != nil:
		return t, newest, false, conflict("enrollment token was already used")
	case t.SupersededBy == "" || t.SupersededBy != newest.Hash || t.SupersededExpiry == nil:
		return t, newest, false, conflict("enrollment token was not superseded by the node's newest token")
	case newest.UsedAt != nil:
		return t, newest, false, conflict("the node's newest enrollment token was already used")
	}
	t.ExpiresAt, t.SupersededBy, t.SupersededExpiry = *t.SupersededExpiry, "", nil
	next, _ = Supersede(newest, t.Hash, now)
	return t, next, true, nil
}
