package admin

import (
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// tokenView is an admin token as the API shows it: never its hash.
type tokenView struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Role      lifecycle.Role `json:"role"`
	CreatedAt time.Time      `json:"created_at"`
	RevokedAt *time.Time     `json:"revoked_at,omitempty"`
	// Token is the bearer token itself, answered once, on creation.
	Token string `json:"token,omitempty"`
}

func viewOf(t lifecycle.AdminToken) tokenView {
	return tokenView{ID: t.ID, Name: t.Name, Role: t.Role, CreatedAt: t.CreatedAt, RevokedAt: t.RevokedAt}
}

type tokenRequest struct {
	Name string         `json:"name"`
	Role lifecycle.Role `json:"role"`
}

// createToken answers POST /tokens. Only the token's SHA-256 is stored;
// the token is in this answer and nowhere else.
func (a *API) createToken(r *http.Request, c *call) (int, any, error) {
	const op = "admin.createToken"
	var q tokenRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if q.Name == "" || len(q.Name) > 64 || q.Name == admintoken.Name {
		return 0, nil, lifecycle.Invalid(op, "name", "name is required: 1-64 characters, not %q", admintoken.Name)
	}
	if !q.Role.Valid() {
		return 0, nil, lifecycle.Invalid(op, "role", "role %.32q is not admin, operator or viewer", q.Role)
	}
	tok, err := admintoken.Generate(a.rand)
	if err != nil {
		return 0, nil, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	id, err := lifecycle.NewID(a.rand)
	if err != nil {
		return 0, nil, err
	}
	t := lifecycle.AdminToken{ID: id, Name: q.Name, Role: q.Role, Hash: admintoken.Hash(tok), CreatedAt: a.now().UTC()}
	if err := a.store.CreateAdminToken(r.Context(), t); err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "token.create", kind: "admin_token", id: id, expected: string(q.Role)})
	v := viewOf(t)
	v.Token = tok
	return http.StatusCreated, v, nil
}

// listTokens answers GET /tokens: one page in id order read from the store.
func (a *API) listTokens(r *http.Request, _ *call) (int, any, error) {
	p, err := readPage("admin.listTokens", r.URL.Query(), "tokens")
	if err != nil {
		return 0, nil, err
	}
	ts, err := a.store.ListAdminTokenPage(r.Context(), p.after, p.limit+1)
	if err != nil {
		return 0, nil, err
	}
	ts, next := cutPage(p, ts, func(t lifecycle.AdminToken) string { return t.ID })
	out := make([]tokenView, 0, len(ts))
	for _, t := range ts {
		out = append(out, viewOf(t))
	}
	return http.StatusOK, listBody("tokens", out, next), nil
}

// revokeToken answers DELETE /tokens/{id}: conflict when already revoked.
func (a *API) revokeToken(r *http.Request, c *call) (int, any, error) {
	const op = "admin.revokeToken"
	id := c.vars["id"]
	ts, err := a.store.ListAdminTokens(r.Context())
	if err != nil {
		return 0, nil, err
	}
	for _, t := range ts {
		if t.ID == id && t.RevokedAt != nil {
			return 0, nil, lifecycle.Errorf(lifecycle.CodeConflict, op, "token %s is already revoked", id)
		}
	}
	t, err := a.store.RevokeAdminToken(r.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "token.revoke", kind: "admin_token", id: t.ID, prior: "active", expected: "revoked"})
	return http.StatusOK, viewOf(t), nil
}
