package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
)

// readyTimeout bounds one readiness check, so a stuck store answers 503
// instead of hanging the probe.
const readyTimeout = 2 * time.Second

func healthz(w http.ResponseWriter, _ *http.Request) {
	writeText(w, http.StatusOK, "ok")
}

func readyz(r *Readiness) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ctx, cancel := context.WithTimeout(req.Context(), readyTimeout)
		defer cancel()
		if err := r.Check(ctx); err != nil {
			w.Header().Set("Retry-After", problem.Seconds(problem.RetryAfter))
			writeText(w, http.StatusServiceUnavailable, "not ready: "+err.Error())
			return
		}
		writeText(w, http.StatusOK, "ready")
	}
}

func writeText(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body + "\n"))
}
