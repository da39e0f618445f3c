package admin

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// principal is the token a request was made with.
type principal struct {
	TokenID string
	Name    string
	Role    lifecycle.Role
}

// Actor is how audit entries name the principal.
func (p principal) Actor() string { return "token:" + p.Name + ":" + p.TokenID }

var rank = map[lifecycle.Role]int{lifecycle.RoleViewer: 1, lifecycle.RoleOperator: 2, lifecycle.RoleAdmin: 3}

// authenticate finds the request's bearer token by its SHA-256 hash:
// unauthorized when it is missing, unknown or revoked; forbidden when its
// role ranks below need.
func (a *API) authenticate(ctx context.Context, r *http.Request, need lifecycle.Role) (principal, error) {
	const op = "admin.auth"
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	tok = strings.TrimSpace(tok)
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return principal{}, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "a bearer token is required (Authorization: Bearer <token>)")
	}
	t, err := a.store.AdminTokenByHash(ctx, admintoken.Hash(tok))
	asOf, stale := lifecycle.StaleAnswered(ctx)
	switch {
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound && stale:
		// A token created after the snapshot is not in it: say that the
		// store is unavailable, not that the token is wrong.
		return principal{}, lifecycle.Errorf(lifecycle.CodeUnavailable, op,
			"this daemon's store has no quorum and its snapshot (taken %s) does not know the token; try again once the cluster is back",
			asOf.UTC().Format(time.RFC3339))
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound:
		return principal{}, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "unknown token")
	case err != nil:
		return principal{}, err
	case t.RevokedAt != nil:
		return principal{}, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "the token was revoked")
	}
	p := principal{TokenID: t.ID, Name: t.Name, Role: t.Role}
	if rank[p.Role] < rank[need] {
		return p, lifecycle.Errorf(lifecycle.CodeForbidden, op, "role %s may not do this; it needs %s", p.Role, need)
	}
	return p, nil
}
