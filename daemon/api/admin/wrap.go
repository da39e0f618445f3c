package admin

import (
	"encoding/hex"
	"io"
	"net/http"
	"regexp"

	"github.com/gorilla/mux"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// wrap turns a route into an http.Handler: request id, authentication,
// the handler, the answer, and one log line.
func (a *API) wrap(rt route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := a.now()
		c := &call{requestID: a.requestID(r), vars: mux.Vars(r)}
		w.Header().Set("X-Request-Id", c.requestID)
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			ctx, stale := lifecycle.AllowStale(r.Context())
			r, w = r.WithContext(ctx), &staleWriter{ResponseWriter: w, stale: stale, now: a.now}
		}
		status, err := a.serve(w, r, rt, c)
		attrs := []any{"method", r.Method, "route", rt.path, "status", status,
			"duration_seconds", a.now().Sub(start).Seconds(), "request_id", c.requestID}
		if c.who.TokenID != "" {
			attrs = append(attrs, "actor", c.who.Actor())
		}
		if err != nil && status >= 500 {
			a.log.Error("admin request failed", append(attrs, "err", err)...)
			return
		}
		a.log.Info("admin request", attrs...)
	})
}

func (a *API) serve(w http.ResponseWriter, r *http.Request, rt route, c *call) (int, error) {
	who, err := a.authenticate(r.Context(), r, rt.role)
	c.who = who
	if err == nil {
		err = problem.JSONBody(r, "admin")
	}
	if err == nil {
		var status int
		var body any
		status, body, err = rt.h(r, c)
		if st, ok := body.(stream); ok && err == nil {
			if err := st(w); err != nil {
				return http.StatusInternalServerError, err // the answer was cut short
			}
			return status, nil
		}
		if err == nil {
			writeBody(w, status, body)
			return status, nil
		}
		err = staleNotFound(r.Context(), err)
	}
	problem.Write(w, err)
	return problem.Status(err), err
}

func writeBody(w http.ResponseWriter, status int, body any) {
	if body == nil {
		w.WriteHeader(status)
		return
	}
	problem.WriteJSON(w, status, body)
}

// requestID keeps a well-formed X-Request-Id or makes one.
func (a *API) requestID(r *http.Request) string {
	if id := r.Header.Get("X-Request-Id"); requestIDPattern.MatchString(id) {
		return id
	}
	b := make([]byte, 8)
	if _, err := io.ReadFull(a.rand, b); err != nil {
		return a.now().UTC().Format("20060102T150405.000000000")
	}
	return hex.EncodeToString(b)
}
