package admin_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// TestPprofAdminOnly: the runtime's profiles answer an admin token (the
// heap as gzip-compressed pprof, as text with debug=1, the index naming
// it) and nobody else: no token 401, viewer and operator 403.
func TestPprofAdminOnly(t *testing.T) {
	e := newEnv(t)
	heap := admin.DebugPrefix + "heap"
	for who, want := range map[lifecycle.Role]int{noToken: 401, viewerRole: 403, operatorRole: 403} {
		if r := e.do(who, http.MethodGet, heap, nil); r.Code != want || bytes.Contains(r.Body, []byte("heap profile")) {
			t.Errorf("GET %s as %q: %d, want %d and no profile", heap, who, r.Code, want)
		}
	}
	r := e.do(adminRole, http.MethodGet, heap, nil)
	if r.Code != http.StatusOK {
		t.Fatalf("GET %s as admin: %d %.300s", heap, r.Code, r.Body)
	}
	zr, err := gzip.NewReader(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatalf("heap profile is not gzip: %v", err)
	}
	if raw, err := io.ReadAll(zr); err != nil || len(raw) == 0 {
		t.Fatalf("heap profile: %d bytes, %v", len(raw), err)
	}
	if r := e.do(adminRole, http.MethodGet, heap+"?debug=1", nil); !strings.HasPrefix(string(r.Body), "heap profile:") {
		t.Errorf("heap?debug=1: %d %.100s", r.Code, r.Body)
	}
	if r := e.do(adminRole, http.MethodGet, admin.DebugPrefix, nil); r.Code != http.StatusOK || !bytes.Contains(r.Body, []byte("heap")) {
		t.Errorf("index: %d %.200s", r.Code, r.Body)
	}
	if r := e.do(adminRole, http.MethodGet, admin.DebugPrefix+"nosuch", nil); r.Code != http.StatusNotFound {
		t.Errorf("unknown profile: %d, want 404", r.Code)
	}
}
