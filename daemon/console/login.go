package console

import (
	"net/http"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/admintoken"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// loginForm shows the sign-in form with a fresh CSRF token, also set as
// a cookie that the POST must match.
func (c *Console) loginForm(w http.ResponseWriter, r *http.Request) {
	c.showLogin(w, r, http.StatusOK, "")
}

func (c *Console) showLogin(w http.ResponseWriter, r *http.Request, status int, msg string) {
	tok := randomID()
	http.SetCookie(w, c.cookie(r, loginCookie, tok, 600))
	c.render(w, r, status, "login", view{Title: "Sign in", CSRF: tok, Data: msg})
}

// login checks the token as the admin API does (by its hash; unknown or
// revoked is refused) and starts a session holding it.
func (c *Console) login(w http.ResponseWriter, r *http.Request) {
	k, err := r.Cookie(loginCookie)
	if err != nil || !c.sameOrigin(r) || !equal(r.PostFormValue("csrf"), k.Value) {
		c.fail(w, r, nil, http.StatusForbidden, "Forbidden", "the sign-in form's CSRF token is missing or wrong; reload the page and try again")
		return
	}
	tok := strings.TrimSpace(r.PostFormValue("token"))
	t, err := c.tokens.AdminTokenByHash(r.Context(), admintoken.Hash(tok))
	switch {
	case tok == "" || lifecycle.ErrorCode(err) == lifecycle.CodeNotFound || (err == nil && t.RevokedAt != nil):
		c.log.Info("console: sign-in refused", "reason", "unknown or revoked token")
		c.showLogin(w, r, http.StatusUnauthorized, "That token is unknown or revoked.")
		return
	case err != nil:
		c.fail(w, r, nil, http.StatusServiceUnavailable, "Unavailable", "the store did not answer; try again")
		return
	}
	s, err := c.sessions.add(session{token: lifecycle.Secret(tok), tokenID: t.ID, name: t.Name, role: t.Role, expires: c.now().Add(c.ttl)}, c.now())
	if err != nil {
		c.log.Warn("console: sign-in refused", "reason", "session table full", "actor", "token:"+t.Name+":"+t.ID)
		c.showLogin(w, r, http.StatusServiceUnavailable, "Sign-in refused: "+err.Error()+".")
		return
	}
	http.SetCookie(w, c.cookie(r, loginCookie, "", -1))
	http.SetCookie(w, c.cookie(r, sessionCookie, s.id, int(c.ttl.Seconds())))
	c.log.Info("console: signed in", "actor", "token:"+t.Name+":"+t.ID, "role", t.Role)
	http.Redirect(w, r, "/console/fleet", http.StatusSeeOther)
}

// logout ends the session and clears its cookie.
func (c *Console) logout(w http.ResponseWriter, r *http.Request, s *session) {
	c.sessions.drop(s.id)
	http.SetCookie(w, c.cookie(r, sessionCookie, "", -1))
	http.Redirect(w, r, "/console/login", http.StatusSeeOther)
}

// canAct says whether s's role may run the console's actions (operator).
func canAct(s *session) bool {
	return s != nil && (s.role == lifecycle.RoleOperator || s.role == lifecycle.RoleAdmin)
}
