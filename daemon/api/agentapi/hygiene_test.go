package agentapi_test

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/e2e/agentenv"
)

// TestEveryAgentRouteAnswers405WithAllowAnd415ForNonJSONBody walks the
// agent API's router and asks the TLS listener serving it: every route
// asked with a method it lacks answers 405 problem+json whose Allow
// lists the route's methods, and every POST route given a text/plain or
// form body answers 415 problem+json before it asks for a certificate.
func TestEveryAgentRouteAnswers405WithAllowAnd415ForNonJSONBody(t *testing.T) {
	e := agentenv.New(t, agentenv.Options{})
	c := e.Client(nil)
	routes := map[string][]string{}
	err := e.API.Handler().(*mux.Router).Walk(func(rt *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, _ := rt.GetPathTemplate()
		ms, err := rt.GetMethods()
		routes[path] = append(routes[path], ms...)
		return err
	})
	if err != nil || len(routes) < 6 {
		t.Fatalf("walk: %d routes, %v", len(routes), err)
	}
	vars := regexp.MustCompile(`\{[^}]+\}`)
	for tmpl, ms := range routes {
		url := e.URL + vars.ReplaceAllString(tmpl, "n1")
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if slices.Contains(ms, m) {
				continue
			}
			resp := do(t, c, m, url, "", "")
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != strings.Join(ms, ", ") ||
				resp.Header.Get("Content-Type") != wire.ProblemContentType {
				t.Errorf("%s %s = %d %s, Allow %q; want 405 problem+json, Allow %v", m, tmpl, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Allow"), ms)
			}
		}
		if !slices.Contains(ms, http.MethodPost) {
			continue
		}
		for ct, body := range map[string]string{"text/plain": "{}", "application/x-www-form-urlencoded": "a=b"} {
			resp := do(t, c, http.MethodPost, url, ct, body)
			if resp.StatusCode != http.StatusUnsupportedMediaType || resp.Header.Get("Content-Type") != wire.ProblemContentType {
				t.Errorf("POST %s with a %s body = %d %s; want 415 problem+json", tmpl, ct, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
		}
	}
}

func do(t *testing.T, c *http.Client, method, url, ct, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	resp.Body.Close()
	return resp
}
