package adminclient_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// The in-process transport hands the request to the handler as a server
// would (remote address, request URI, body) and its problem answer back
// as an *APIError with the problem's fields.
func TestInProcessTransport(t *testing.T) {
	var got *http.Request
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		problem.Write(w, lifecycle.Invalid("test", "reason", "reason is required"))
	})
	c := &adminclient.Client{Base: "http://console", Token: "t", HTTP: &http.Client{Transport: adminclient.InProcess(h, "127.0.0.1:0")}}
	_, _, err := c.Recover(context.Background(), answer.Decommission, "d 1", "cancel", "")
	var ae *adminclient.APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusUnprocessableEntity || ae.Field != "reason" || ae.Title == "" {
		t.Fatalf("error %#v, want a 422 problem naming the field", err)
	}
	if got.RemoteAddr != "127.0.0.1:0" || got.RequestURI != "/api/v1/admin/decommissions/d%201/cancel" ||
		got.Header.Get("Authorization") != "Bearer t" {
		t.Errorf("request %s %s from %s, auth %q", got.Method, got.RequestURI, got.RemoteAddr, got.Header.Get("Authorization"))
	}
}
