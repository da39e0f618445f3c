package problem

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

func TestStatus(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{lifecycle.Invalid("op", "f", "bad"), 422},
		{Malformed("op", "", "bad"), 400},
		{MethodNotAllowed("op"), 405},
		{lifecycle.Errorf(lifecycle.CodeNotFound, "op", "x"), 404},
		{lifecycle.Errorf(lifecycle.CodeConflict, "op", "x"), 409},
		{lifecycle.Errorf(lifecycle.CodeUnauthorized, "op", "x"), 401},
		{lifecycle.Errorf(lifecycle.CodeForbidden, "op", "x"), 403},
		{lifecycle.Errorf(lifecycle.CodeUnavailable, "op", "x"), 503},
		{lifecycle.Errorf(lifecycle.CodeInternal, "op", "x"), 500},
		{http.ErrAbortHandler, 500},
	}
	for _, tt := range tests {
		t.Run(tt.err.Error(), func(t *testing.T) {
			if got := Status(tt.err); got != tt.want {
				t.Errorf("Status = %d, want %d", got, tt.want)
			}
		})
	}
	if p := From(lifecycle.Errorf(lifecycle.CodeInternal, "op", "/var/lib/x corrupt")); p.Detail != "" {
		t.Errorf("internal detail shown: %q", p.Detail)
	}
}

func TestUnmarshal(t *testing.T) {
	type body struct {
		A int    `json:"a"`
		B string `json:"b"`
	}
	tests := []struct {
		name, in string
		field    string
		status   int
	}{
		{"ok", `{"a": 1}`, "", 0},
		{"not object", `[1]`, "", 400},
		{"truncated", `{"a": 1`, "", 400},
		{"wrong type", `{"a": "1"}`, "a", 400},
		{"unknown", `{"c": 1}`, "c", 400},
		{"trailing", `{"a": 1} {}`, "", 400},
		{"not utf8", "{\"b\": \"\xff\"}", "", 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := body{B: "kept"}
			err := Unmarshal([]byte(tt.in), "op", &v)
			if tt.status == 0 {
				if err != nil || v.A != 1 || v.B != "kept" {
					t.Fatalf("Unmarshal = %v, %+v; want members absent from the body kept", err, v)
				}
				return
			}
			if Status(err) != tt.status || lifecycle.ErrorField(err) != tt.field {
				t.Errorf("Unmarshal = %v (status %d, field %q), want %d %q", err, Status(err), lifecycle.ErrorField(err), tt.status, tt.field)
			}
		})
	}
}

func TestReadBodyLimit(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(strings.Repeat("x", MaxBody+1)))
	if _, err := ReadBody(r, "op"); Status(err) != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: %v (%d), want 413", err, Status(err))
	}
}

func TestTyped(t *testing.T) {
	err := Typed("token_expired", lifecycle.Errorf(lifecycle.CodeConflict, "op", "expired"))
	p := From(err)
	if p.Status != http.StatusConflict || p.Code != "token_expired" || p.Type != "urn:maas-sidecar:problem:token_expired" || p.Detail != "op: expired" {
		t.Errorf("typed problem = %+v", p)
	}
	if plain := errors.New("x"); Typed("c", plain) != plain {
		t.Error("a non-lifecycle error must pass through")
	}
}
