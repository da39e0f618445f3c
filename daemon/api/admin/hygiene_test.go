package admin_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var pathVar = regexp.MustCompile(`\{[^}]+\}`)

// routeMethods walks r: each path template and the methods routed on it.
func routeMethods(t *testing.T, r *mux.Router) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := r.Walk(func(rt *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := rt.GetPathTemplate()
		if err != nil {
			return err
		}
		ms, err := rt.GetMethods()
		if err != nil {
			return nil // a prefix route takes every method
		}
		out[path] = append(out[path], ms...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 30 {
		t.Fatalf("the walk found %d paths: not the whole route table", len(out))
	}
	return out
}

// TestEveryAdminRouteAnswers405WithAllowAnd415ForNonJSONBody walks the
// admin router: every path asked with a method it lacks answers 405
// problem+json whose Allow lists exactly the path's methods, and every
// route asked with a text/plain or form body answers 415 problem+json,
// code unsupported_media_type, before it does anything.
func TestEveryAdminRouteAnswers405WithAllowAnd415ForNonJSONBody(t *testing.T) {
	e := newEnv(t)
	routes := routeMethods(t, e.handler.(*mux.Router))
	for tmpl, own := range routes {
		path := pathVar.ReplaceAllString(tmpl, "x1")
		ms := allowedOn(routes, path)
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if slices.Contains(ms, m) {
				continue
			}
			rec := send(e, m, path, "", "")
			allow := strings.Split(rec.Header().Get("Allow"), ", ")
			sort.Strings(allow)
			if rec.Code != http.StatusMethodNotAllowed || !slices.Equal(allow, ms) || rec.Header().Get("Content-Type") != problem.ContentType {
				t.Errorf("%s %s = %d %s, Allow %q; want 405 problem+json, Allow %v", m, tmpl, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Allow"), ms)
			}
		}
		for _, m := range own {
			if m == http.MethodGet || m == http.MethodDelete {
				continue // no body
			}
			for ct, body := range map[string]string{"text/plain": "{}", "application/x-www-form-urlencoded": "a=b"} {
				rec := send(e, m, path, ct, body)
				if rec.Code != http.StatusUnsupportedMediaType || rec.Header().Get("Content-Type") != problem.ContentType ||
					!strings.Contains(rec.Body.String(), `"code":"unsupported_media_type"`) {
					t.Errorf("%s %s with a %s body = %d %s %s; want 415 problem+json", m, tmpl, ct, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
				}
			}
		}
	}
}

// allowedOn is the union of the methods of every template that matches
// path (/onboardings/batch is also /onboardings/{id}).
func allowedOn(routes map[string][]string, path string) []string {
	var out []string
	for tmpl, ms := range routes {
		re := regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(pathVar.ReplaceAllString(tmpl, "\x00")), "\x00", "[^/]+") + "$")
		if re.MatchString(path) {
			for _, m := range ms {
				if !slices.Contains(out, m) {
					out = append(out, m)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// send asks e's handler as an admin, with body of content type ct.
func send(e *env, method, path, ct, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+e.tokens[lifecycle.RoleAdmin])
	req.Header.Set("X-Audit-Reason", "hygiene")
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, req)
	return rec
}
