package console

import (
	"crypto/subtle"
	"net/http"
	"net/url"
)

const (
	sessionCookie = "console_session"
	// loginCookie carries the sign-in form's CSRF token (double submit):
	// no session exists yet to hold it.
	loginCookie = "console_login"
)

// handler is a page or action with its signed-in session.
type handler func(w http.ResponseWriter, r *http.Request, s *session)

// page requires a session; without one it sends the browser to sign in.
func (c *Console) page(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := c.session(r)
		if s == nil {
			http.Redirect(w, r, "/console/login", http.StatusSeeOther)
			return
		}
		h(w, r, s)
	})
}

// post requires a session, a same-origin request and the session's CSRF
// token in the form: 403 otherwise. operator also requires a role that
// may act (a viewer's POST is refused before it reaches the API).
func (c *Console) post(h handler, operator bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := c.session(r)
		if s == nil {
			c.fail(w, r, nil, http.StatusForbidden, "Not signed in", "sign in first; this form was not sent")
			return
		}
		if !c.sameOrigin(r) || !equal(r.PostFormValue("csrf"), s.csrf) {
			c.log.Warn("console: a form without a valid CSRF token was refused", "path", r.URL.Path, "actor", s.name)
			c.fail(w, r, s, http.StatusForbidden, "Forbidden", "the form's CSRF token is missing or wrong; reload the page and try again")
			return
		}
		if operator && !canAct(s) {
			c.fail(w, r, s, http.StatusForbidden, "Forbidden", "role "+string(s.role)+" may not do this; it needs operator")
			return
		}
		h(w, r, s)
	})
}

// session is the request's unexpired session, or nil.
func (c *Console) session(r *http.Request) *session {
	k, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil
	}
	return c.sessions.get(k.Value, c.now())
}

// sameOrigin refuses a request whose Origin header names another origin
// than the console's (browsers send it on every POST): the configured
// public origin behind a proxy, else the request's Host. A request
// without one passes.
func (c *Console) sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	if c.origin != nil {
		return o == c.origin.Scheme+"://"+c.origin.Host
	}
	u, err := url.Parse(o)
	return err == nil && u.Host == r.Host
}

func equal(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// cookie is one of the console's cookies: HttpOnly, SameSite=Strict,
// scoped to /console/, Secure under TLS or behind an https public
// origin; maxAge < 0 deletes it.
func (c *Console) cookie(r *http.Request, name, value string, maxAge int) *http.Cookie {
	secure := r.TLS != nil || (c.origin != nil && c.origin.Scheme == "https")
	return &http.Cookie{Name: name, Value: value, Path: Prefix, MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: secure}
}
