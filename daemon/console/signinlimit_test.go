package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestSignInRateLimited: past a burst of ten attempts from one address,
// sign-in answers 429 with Retry-After, even for a good token, and starts
// no session; the burst is logged once with the address and every
// refusal counted. Another address still signs in.
func TestSignInRateLimited(t *testing.T) {
	e := newEnv(t, false)
	b := e.browser()
	_, page := b.get("/console/login")
	csrf := csrfOf(t, page)
	for i := range 10 {
		r, body := b.post("/console/login", csrf, url.Values{"token": {"mss_guess_" + strconv.Itoa(i)}})
		if r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d, want 401", i+1, r.StatusCode)
		}
		csrf = csrfOf(t, body) // each answer's form carries a fresh token
	}
	for range 2 {
		r, body := b.post("/console/login", csrf, url.Values{"token": {e.tokens[lifecycle.RoleAdmin]}})
		csrf = csrfOf(t, body)
		retry, _ := strconv.Atoi(r.Header.Get("Retry-After"))
		if r.StatusCode != http.StatusTooManyRequests || retry < 1 || !strings.Contains(body, "Too many sign-in attempts") {
			t.Fatalf("attempt past the burst: %d, Retry-After %q\n%s", r.StatusCode, r.Header.Get("Retry-After"), body)
		}
	}
	if r, _ := b.get("/console/fleet"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("a rate-limited sign-in left a session (%d)", r.StatusCode)
	}
	if n := strings.Count(e.logs.String(), `"reason":"too many attempts","remote":"127.0.0.1"`); n != 1 {
		t.Fatalf("logged the burst %d times, want once with the address:\n%s", n, e.logs.String())
	}
	want := `
# HELP maas_sidecar_console_signin_refused_total Console sign-ins refused, by reason (rate_limited: too many attempts from one address).
# TYPE maas_sidecar_console_signin_refused_total counter
maas_sidecar_console_signin_refused_total{reason="bad_token"} 10
maas_sidecar_console_signin_refused_total{reason="csrf"} 0
maas_sidecar_console_signin_refused_total{reason="rate_limited"} 2
maas_sidecar_console_signin_refused_total{reason="sessions_full"} 0
`
	if err := testutil.GatherAndCompare(e.reg, strings.NewReader(want)); err != nil {
		t.Error(err)
	}
	other := httptest.NewRequest(http.MethodPost, "/console/login", strings.NewReader(""))
	other.RemoteAddr = "192.0.2.7:40000"
	w := httptest.NewRecorder()
	e.srv.Config.Handler.ServeHTTP(w, other)
	if w.Code == http.StatusTooManyRequests {
		t.Fatal("another address was limited by the first one's burst")
	}
}
