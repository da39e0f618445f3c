package admin_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestAuth checks every documented operation: no token and a revoked or
// unknown token are 401; a role below the documented one is 403. The
// checks run before the handler, so nothing needs to exist.
func TestAuth(t *testing.T) {
	e := newEnv(t)
	e.tokens["unknown"] = "mss_not_a_known_token"
	rank := map[string]int{"viewer": 1, "operator": 2, "admin": 3}
	for _, o := range documented(t) {
		if o.Role == "" {
			continue
		}
		path := strings.NewReplacer("{id}", "x", "{oid}", "y", "{aid}", "z").Replace(o.Path)
		t.Run(o.Method+" "+o.Path, func(t *testing.T) {
			for _, who := range []lifecycle.Role{noToken, revokedRole, "unknown"} {
				r := e.do(who, o.Method, path, "{}")
				if r.Code != http.StatusUnauthorized || r.Header.Get("WWW-Authenticate") == "" {
					t.Errorf("as %q: %d %s, want 401 with WWW-Authenticate", who, r.Code, r.Body)
				}
			}
			for _, who := range []lifecycle.Role{viewerRole, operatorRole} {
				if rank[string(who)] >= rank[o.Role] {
					continue
				}
				if r := e.do(who, o.Method, path, "{}"); r.Code != http.StatusForbidden {
					t.Errorf("as %s (needs %s): %d %s, want 403", who, o.Role, r.Code, r.Body)
				}
			}
			if rank[o.Role] == 0 {
				t.Errorf("x-role %q is not a role", o.Role)
			}
		})
	}
}

func TestAuthSchemes(t *testing.T) {
	e := newEnv(t)
	for _, h := range []string{"Basic abc", "Bearer", "Bearer ", e.tokens[adminRole]} {
		req := e.do(noToken, http.MethodGet, sites, nil, "Authorization", h)
		if req.Code != http.StatusUnauthorized {
			t.Errorf("Authorization %q: %d, want 401", h, req.Code)
		}
	}
	if r := e.do(noToken, http.MethodGet, sites, nil, "Authorization", "bearer "+e.tokens[viewerRole]); r.Code != http.StatusOK {
		t.Errorf("lower-case scheme: %d, want 200", r.Code)
	}
}
