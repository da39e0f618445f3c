package console

import (
	"math"
	"net/http"
	"strconv"
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
	if !c.admitSignIn(w, r) {
		return
	}
	k, err := r.Cookie(loginCookie)
	if err != nil || !c.sameOrigin(r) || !equal(r.PostFormValue("csrf"), k.Value) {
		c.metrics.refuse(RefusedCSRF)
		c.fail(w, r, nil, http.StatusForbidden, "Forbidden", "the sign-in form's CSRF token is missing or wrong; reload the page and try again")
		return
	}
	tok := strings.TrimSpace(r.PostFormValue("token"))
	t, err := c.tokens.AdminTokenByHash(r.Context(), admintoken.Hash(tok))
	switch {
	case tok == "" || lifecycle.ErrorCode(err) == lifecycle.CodeNotFound || (err == nil && t.RevokedAt != nil):
		c.metrics.refuse(RefusedBadToken)
		c.log.Info("console: sign-in refused", "reason", "unknown or revoked token", "remote", source(r))
		c.showLogin(w, r, http.StatusUnauthorized, "That token is unknown or revoked.")
		return
	case err != nil:
		c.fail(w, r, nil, http.StatusServiceUnavailable, "Unavailable", "the store did not answer; try again")
		return
	}
	s, err := c.sessions.add(session{token: lifecycle.Secret(tok), tokenID: t.ID, name: t.Name, role: t.Role, expires: c.now().Add(c.ttl)}, c.now())
	if err != nil {
		c.metrics.refuse(RefusedFull)
		c.log.Warn("console: sign-in refused", "reason", "session table full", "actor", "token:"+t.Name+":"+t.ID)
		c.showLogin(w, r, http.StatusServiceUnavailable, "Sign-in refused: "+err.Error()+".")
		return
	}
	http.SetCookie(w, c.cookie(r, loginCookie, "", -1))
	http.SetCookie(w, c.cookie(r, sessionCookie, s.id, int(c.ttl.Seconds())))
	c.log.Info("console: signed in", "actor", "token:"+t.Name+":"+t.ID, "role", t.Role)
	http.Redirect(w, r, "/console/fleet", http.StatusSeeOther)
}

// admitSignIn takes one attempt from the source's bucket; past the
// burst it answers 429 with Retry-After, logging the first refusal of
// each burst with the source address.
func (c *Console) admitSignIn(w http.ResponseWriter, r *http.Request) bool {
	src := source(r)
	ok, retry, first := c.signIns.allow(src, c.now())
	if ok {
		return true
	}
	c.metrics.refuse(RefusedRateLimited)
	secs := int(math.Ceil(retry.Seconds()))
	if first {
		c.log.Warn("console: sign-in refused", "reason", "too many attempts", "remote", src, "retry_after_seconds", secs,
			"note", "further refusals of this address are counted, not logged, until it may try again")
	}
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	c.showLogin(w, r, http.StatusTooManyRequests, "Too many sign-in attempts from your address; try again in "+strconv.Itoa(secs)+" s.")
	return false
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
