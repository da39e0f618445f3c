package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestSignIn: the token signs in once; the session cookie is HttpOnly,
// SameSite=Strict, scoped and expiring; the token is in no answer and no
// log line; sign out ends the session.
func TestSignIn(t *testing.T) {
	e := newEnv(t, false)
	b := e.browser()
	r, _ := b.get("/console/fleet")
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/console/login" {
		t.Fatalf("signed out fleet: %d %s, want 303 to the sign-in form", r.StatusCode, r.Header.Get("Location"))
	}
	_, page := b.get("/console/login")
	r, _ = b.post("/console/login", csrfOf(t, page), url.Values{"token": {e.tokens[lifecycle.RoleOperator]}})
	var sess *http.Cookie
	for _, c := range r.Cookies() {
		if c.Name == "console_session" {
			sess = c
		}
	}
	if sess == nil || !sess.HttpOnly || sess.SameSite != http.SameSiteStrictMode || sess.Path != "/console/" || sess.MaxAge != 8*3600 || sess.Secure {
		t.Fatalf("session cookie %+v: want HttpOnly, SameSite=Strict, Path=/console/, Max-Age 8h, not Secure over plain HTTP", sess)
	}
	_, page = b.get("/console/fleet")
	if !strings.Contains(page, "operator (operator)") || !strings.Contains(page, "Sign out") {
		t.Fatalf("the fleet page does not show who is signed in:\n%s", page)
	}
	r, _ = b.post("/console/logout", csrfOf(t, page), nil)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %d", r.StatusCode)
	}
	if r, _ = b.get("/console/fleet"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("after sign out the fleet answers %d, want a redirect to sign in", r.StatusCode)
	}
	for _, where := range []string{b.bodies.String(), e.logs.String()} {
		if strings.Contains(where, e.tokens[lifecycle.RoleOperator]) {
			t.Fatal("the token reached an answer or a log line")
		}
	}
}

// TestSignInRefused: an unknown token and a form without the sign-in
// CSRF token start no session.
func TestSignInRefused(t *testing.T) {
	e := newEnv(t, false)
	b := e.browser()
	_, page := b.get("/console/login")
	r, body := b.post("/console/login", csrfOf(t, page), url.Values{"token": {"mss_not_a_token"}})
	if r.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "unknown or revoked") {
		t.Fatalf("unknown token: %d\n%s", r.StatusCode, body)
	}
	r, _ = b.post("/console/login", "", url.Values{"token": {e.tokens[lifecycle.RoleAdmin]}})
	if r.StatusCode != http.StatusForbidden {
		t.Fatalf("sign in without the CSRF token: %d, want 403", r.StatusCode)
	}
	if r, _ = b.get("/console/fleet"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("a refused sign-in left a session (%d)", r.StatusCode)
	}
}

// TestSecureCookieUnderTLS: over TLS the session cookie is Secure.
func TestSecureCookieUnderTLS(t *testing.T) {
	e := newEnv(t, true)
	b := e.browser()
	_, page := b.get("/console/login")
	r, _ := b.post("/console/login", csrfOf(t, page), url.Values{"token": {e.tokens[lifecycle.RoleViewer]}})
	for _, c := range r.Cookies() {
		if c.Name == "console_session" && c.Secure {
			return
		}
	}
	t.Fatalf("no Secure session cookie under TLS: %v", r.Header.Values("Set-Cookie"))
}

// TestSecurityHeaders: every page carries a strict CSP, refuses framing
// and is not cached.
func TestSecurityHeaders(t *testing.T) {
	e := newEnv(t, false)
	b := e.signIn(lifecycle.RoleViewer)
	for _, p := range []string{"/console/login", "/console/fleet", "/console/audit", "/console/static/console.css"} {
		r, _ := b.get(p)
		csp := r.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") ||
			strings.Contains(csp, "unsafe-inline") || r.Header.Get("X-Frame-Options") != "DENY" || r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: CSP %q, X-Frame-Options %q, Cache-Control %q", p, csp, r.Header.Get("X-Frame-Options"), r.Header.Get("Cache-Control"))
		}
	}
}

// TestRevokedTokenEndsSession: once the token is revoked the next page
// refuses and the session is gone.
func TestRevokedTokenEndsSession(t *testing.T) {
	e := newEnv(t, false)
	b := e.signIn(lifecycle.RoleOperator)
	if _, err := e.store.RevokeAdminToken(context.Background(), "tok-b"); err != nil {
		t.Fatal(err)
	}
	if r, body := b.get("/console/fleet"); r.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "revoked") {
		t.Fatalf("fleet after revocation: %d\n%s", r.StatusCode, body)
	}
	if r, _ := b.get("/console/fleet"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the session outlived its token: %d", r.StatusCode)
	}
}
