package admin_test

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorilla/mux"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin"
	"github.com/gpuaas/maas-sidecar/docs"
)

// operation is one documented operation of the OpenAPI document.
type operation struct {
	Method, Path string
	Role         string
	HasBody      bool
}

func documented(t testing.TB) []operation {
	t.Helper()
	var doc struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]map[string]struct {
			Role        string          `json:"x-role"`
			RequestBody json.RawMessage `json:"requestBody"`
			OperationID string          `json:"operationId"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(docs.OpenAPI, &doc); err != nil {
		t.Fatalf("docs/openapi.json: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("openapi %q, want 3.x", doc.OpenAPI)
	}
	var out []operation
	for path, ops := range doc.Paths {
		for m, o := range ops {
			if o.OperationID == "" {
				t.Errorf("%s %s has no operationId", m, path)
			}
			out = append(out, operation{strings.ToUpper(m), path, o.Role, len(o.RequestBody) > 0})
		}
	}
	return sortOps(out)
}

func sortOps(ops []operation) []operation {
	sort.Slice(ops, func(i, j int) bool { return ops[i].Path+ops[i].Method < ops[j].Path+ops[j].Method })
	return ops
}

// TestOpenAPICoverage fails when a route exists without a documented
// operation, or an operation is documented that no route serves.
func TestOpenAPICoverage(t *testing.T) {
	r := mux.NewRouter()
	admin.New(admin.Config{}).Register(r)
	var routes []operation
	err := r.Walk(func(rt *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := rt.GetPathTemplate()
		if err != nil {
			return err
		}
		methods, err := rt.GetMethods()
		if err != nil {
			return err
		}
		for _, m := range methods {
			routes = append(routes, operation{Method: m, Path: path})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var docd []operation
	for _, o := range documented(t) {
		docd = append(docd, operation{Method: o.Method, Path: o.Path})
	}
	if d := cmp.Diff(docd, sortOps(routes)); d != "" {
		t.Errorf("documented operations (-) and routes (+) differ:\n%s", d)
	}
}

func TestOpenAPIServed(t *testing.T) {
	e := newEnv(t)
	r := e.do(noToken, http.MethodGet, admin.OpenAPIPath, nil)
	if r.Code != http.StatusOK || string(r.Body) != string(docs.OpenAPI) {
		t.Fatalf("GET %s = %d, %d bytes", admin.OpenAPIPath, r.Code, len(r.Body))
	}
}
