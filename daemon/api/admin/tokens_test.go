package admin_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	e := newEnv(t)
	r := e.do(adminRole, http.MethodPost, "/api/v1/admin/tokens", map[string]any{"name": "ci", "role": "viewer"})
	expect(t, r, http.StatusCreated, "")
	var tok struct{ ID, Token, Role string }
	r.decode(t, &tok)
	if !strings.HasPrefix(tok.Token, "mss_") || tok.Role != "viewer" {
		t.Fatalf("token = %+v", tok)
	}
	e.tokens["ci"] = tok.Token
	expect(t, e.do("ci", http.MethodGet, sites, nil), http.StatusOK, "")
	expect(t, e.do("ci", http.MethodPost, sites, siteBody(nil)), http.StatusForbidden, "")
	list := e.do(adminRole, http.MethodGet, "/api/v1/admin/tokens", nil)
	expect(t, list, http.StatusOK, "")
	if strings.Contains(string(list.Body), "hash") || strings.Contains(string(list.Body), tok.Token) {
		t.Errorf("token list shows a hash or a token: %s", list.Body)
	}
	for _, tt := range []struct {
		name string
		body map[string]any
		fld  string
	}{
		{"name missing", map[string]any{"role": "viewer"}, "name"},
		{"reserved name", map[string]any{"name": "bootstrap", "role": "admin"}, "name"},
		{"role missing", map[string]any{"name": "x"}, "role"},
		{"bad role", map[string]any{"name": "x", "role": "root"}, "role"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			expect(t, e.do(adminRole, http.MethodPost, "/api/v1/admin/tokens", tt.body), 422, tt.fld)
		})
	}
	expect(t, e.do(adminRole, http.MethodDelete, "/api/v1/admin/tokens/"+tok.ID, nil), http.StatusOK, "")
	expect(t, e.do("ci", http.MethodGet, sites, nil), http.StatusUnauthorized, "")
	expect(t, e.do(adminRole, http.MethodDelete, "/api/v1/admin/tokens/"+tok.ID, nil), http.StatusConflict, "")
	expect(t, e.do(adminRole, http.MethodDelete, "/api/v1/admin/tokens/nope", nil), http.StatusNotFound, "")
}
