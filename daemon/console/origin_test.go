package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestPublicOrigin: behind an https reverse proxy (console.public_origin)
// a sign-in from the proxy's origin works over the proxy's plain HTTP
// with a Secure cookie, and a form whose Origin is the backend's own
// host is refused.
func TestPublicOrigin(t *testing.T) {
	e := newEnvOrigin(t, false, "https://console.example:8443")
	signIn := func(origin string) *http.Response {
		b := e.browser()
		_, page := b.get("/console/login")
		form := url.Values{"token": {e.tokens[lifecycle.RoleOperator]}, "csrf": {csrfOf(t, page)}}
		req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/console/login", strings.NewReader(form.Encode()))
		must(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", origin)
		r, err := b.c.Do(req)
		must(t, err)
		b.read(r)
		return r
	}
	r := signIn("https://console.example:8443")
	var sess *http.Cookie
	for _, c := range r.Cookies() {
		if c.Name == "console_session" {
			sess = c
		}
	}
	if r.StatusCode != http.StatusSeeOther || sess == nil || !sess.Secure {
		t.Fatalf("sign-in from the public origin: %d, cookie %+v; want 303 and a Secure session cookie", r.StatusCode, sess)
	}
	if r := signIn(e.srv.URL); r.StatusCode != http.StatusForbidden {
		t.Fatalf("sign-in from the backend's own origin %s: %d, want 403", e.srv.URL, r.StatusCode)
	}
}
