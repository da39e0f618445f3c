package openapitest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/admin/openapitest"
)

const tokens = "/api/v1/admin/tokens"

// answer is a handler that answers status with a JSON body.
func answer(status int, ctype, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	})
}

const (
	jsonCT    = "application/json"
	problemCT = "application/problem+json"
	tokenJSON = `{"id":"t1","name":"ci","role":"viewer","created_at":"2026-01-02T03:04:05Z"}`
	problem   = `{"type":"urn:maas-sidecar:problem:unauthorized","title":"Unauthorized","status":401,"code":"unauthorized"}`
)

// TestHandler sends one request through the validating handler to a
// handler that answers as the case says, and checks whether the exchange
// is reported: a deliberately wrong answer must be.
func TestHandler(t *testing.T) {
	tests := []struct {
		name         string
		method, path string
		token        bool
		body         string
		api          http.Handler
		want         string // a substring of the report; "" for none
	}{
		{"documented answer", "GET", tokens, true, "", answer(200, jsonCT, `{"tokens":[`+tokenJSON+`]}`), ""},
		{"field of the wrong type", "GET", tokens, true, "", answer(200, jsonCT, `{"tokens":[{"id":5}]}`), "doesn't match schema"},
		{"member the schema lacks", "GET", tokens, true, "", answer(200, jsonCT, `{"tokens":[],"hash":"x"}`), "doesn't match schema"},
		{"wrong enum in a problem", "GET", tokens, true, "", answer(401, problemCT, strings.Replace(problem, `"code":"unauthorized"`, `"code":"nope"`, 1)), "doesn't match schema"},
		{"undocumented status", "GET", tokens, true, "", answer(http.StatusTeapot, jsonCT, `{}`), "status is not supported"},
		{"wrong content type", "GET", tokens, true, "", answer(200, "text/plain", `{"tokens":[]}`), "Content-Type"},
		{"undocumented path answered 200", "GET", "/api/v1/admin/nothing", true, "", answer(200, jsonCT, `{}`), "undocumented path"},
		{"undocumented path answered 404", "GET", "/api/v1/admin/nothing", true, "", answer(404, problemCT, `{}`), ""},
		{"undocumented method answered 200", "PUT", tokens, true, "", answer(200, jsonCT, `{}`), "undocumented method"},
		{"no token answered 200", "GET", tokens, false, "", answer(200, jsonCT, `{"tokens":[]}`), "no bearer token"},
		{"no token answered 401", "GET", tokens, false, "", answer(401, problemCT, problem), ""},
		{"rejected body answered 201", "POST", tokens, true, `{"name":"ci","role":"root"}`, answer(201, jsonCT, tokenJSON), "request the document rejects"},
		{"valid body answered 201", "POST", tokens, true, `{"name":"ci","role":"viewer"}`, answer(201, jsonCT, tokenJSON), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rep reports
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			if tt.token {
				req.Header.Set("Authorization", "Bearer mss_x")
			}
			rec := httptest.NewRecorder()
			openapitest.Handler(&rep, tt.api).ServeHTTP(rec, req)
			got := strings.Join(rep, "\n")
			switch {
			case tt.want == "" && got != "":
				t.Errorf("reported a valid exchange: %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("report %q, want one containing %q", got, tt.want)
			}
			want := httptest.NewRecorder()
			tt.api.ServeHTTP(want, httptest.NewRequest(tt.method, tt.path, nil))
			if rec.Code != want.Code || rec.Body.String() != want.Body.String() || rec.Header().Get("Content-Type") != want.Header().Get("Content-Type") {
				t.Errorf("the wrapper changed the answer: %d %q, want %d %q", rec.Code, rec.Body, want.Code, want.Body)
			}
		})
	}
}

// reports is a TB that records what the handler reports.
type reports []string

func (*reports) Helper() {}

func (r *reports) Errorf(format string, args ...any) { *r = append(*r, fmt.Sprintf(format, args...)) }

func TestNewRejectsAnInvalidDocument(t *testing.T) {
	if _, err := openapitest.New([]byte(`{"openapi":"3.0.3","info":{},"paths":{"nope":{}}}`)); err == nil {
		t.Error("New accepted a document without a title and with a relative path")
	}
}
