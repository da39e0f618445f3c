package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
)

// Deps are what the router needs. Readiness and Metrics are required;
// Admin, when set, serves everything under /api/ and /debug/pprof/ (the
// profiles, admin role only).
type Deps struct {
	Readiness *Readiness
	Metrics   *prometheus.Registry
	Admin     http.Handler
	// Console, when set, serves the operator console under /console/.
	Console http.Handler
}

// NewRouter returns the admin listener's handler.
func NewRouter(d Deps) http.Handler {
	r := mux.NewRouter()
	r.HandleFunc("/healthz", healthz).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/readyz", readyz(d.Readiness)).Methods(http.MethodGet, http.MethodHead)
	r.Handle("/metrics", promhttp.HandlerFor(d.Metrics, promhttp.HandlerOpts{
		Registry:          d.Metrics,
		EnableOpenMetrics: true,
	})).Methods(http.MethodGet)
	if d.Admin != nil {
		r.PathPrefix("/api/").Handler(d.Admin)
		r.PathPrefix("/debug/pprof/").Handler(d.Admin)
	}
	if d.Console != nil {
		r.PathPrefix("/console/").Handler(d.Console)
	}
	r.MethodNotAllowedHandler = problem.NotAllowed(r, "api")
	return r
}
