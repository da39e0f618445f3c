package openapitest

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/gpuaas/maas-sidecar/docs"
)

// TB is the part of testing.TB that Handler reports to.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

var admin = sync.OnceValues(func() (*Validator, error) { return New(docs.OpenAPI) })

// Handler serves h and reports to t every exchange that disagrees with the
// admin API's OpenAPI document (see Validator.Check).
func Handler(t TB, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := admin()
		if err != nil {
			t.Errorf("%v", err)
			h.ServeHTTP(w, r)
			return
		}
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		x := Exchange{Request: r, RequestBody: body, Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
		if err := v.Check(context.Background(), x); err != nil {
			t.Errorf("OpenAPI: %s %s: %v\n\tanswer %d: %s", r.Method, r.URL.RequestURI(), err, rec.Code, clip(x.Body))
		}
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		_, _ = w.Write(x.Body)
	})
}

// clip shortens a body for a failure message.
func clip(b []byte) string {
	const max = 400
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}
