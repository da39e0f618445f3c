package adminclient_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gpuaas/maas-sidecar/daemon/api/adminclient"
)

// A stale answer (Warning 110) is used as usual and warned about once.
func TestClientWarnsOnceOnStaleAnswers(t *testing.T) {
	stale := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if stale {
			w.Header().Set("Warning", `110 - "Response is Stale"`)
			w.Header().Set("Age", "42")
			w.Header().Set("X-Store-Snapshot-Taken", "2026-01-01T10:00:00Z")
		}
		w.Write([]byte(`{"n":1}`))
	}))
	defer srv.Close()
	var warn bytes.Buffer
	c := &adminclient.Client{Base: srv.URL, HTTP: srv.Client(), Warn: &warn}
	for range 2 {
		var out struct{ N int }
		if _, err := c.Call(context.Background(), http.MethodGet, "/x", nil, &out, nil); err != nil || out.N != 1 {
			t.Fatalf("stale answer: %v %+v", err, out)
		}
	}
	if got := warn.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "no quorum") || !strings.Contains(got, "2026-01-01T10:00:00Z (42s old)") {
		t.Errorf("warning %q, want one line naming the snapshot and its age", got)
	}
	stale, warn = false, bytes.Buffer{}
	c = &adminclient.Client{Base: srv.URL, HTTP: srv.Client(), Warn: &warn}
	if _, err := c.Call(context.Background(), http.MethodGet, "/x", nil, nil, nil); err != nil || warn.Len() != 0 {
		t.Errorf("fresh answer: %v, warning %q", err, warn.String())
	}
}
