package agentapi

import (
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/internal/throttle"
)

// API serves the agent routes.
type API struct {
	cfg       Config
	contacts  throttle.Throttle // node contact writes
	enrollers sources
	authLog   throttle.Throttle // refused certificates, per node and reason
	enrollLog throttle.Throttle // failed enrollments, per reason
}

// New returns the agent API over cfg (defaults filled in).
func New(cfg Config) *API {
	cfg = cfg.withDefaults().boundDeps()
	return &API{cfg: cfg, enrollers: sources{every: cfg.EnrollEvery, burst: cfg.EnrollBurst}}
}

// Notifier returns the notifier the long polls listen on; enqueue through
// Queue{Store, Notifier} so polls wake at once.
func (a *API) Notifier() *Notifier { return a.cfg.Notifier }

// Handler returns the router. Every route but enroll, its token renewal
// and bootstrap needs a client certificate whose node identity matches {id}.
func (a *API) Handler() http.Handler {
	r := mux.NewRouter()
	r.Use(a.logRequests, jsonOnly)
	r.HandleFunc(wire.RouteEnroll, a.enroll).Methods(http.MethodPost)
	r.HandleFunc(wire.RouteRenewToken, a.renewToken).Methods(http.MethodPost)
	r.HandleFunc(RouteBootstrap, a.bootstrap).Methods(http.MethodGet)
	r.HandleFunc(wire.RouteWait, a.requireNode(a.wait)).Methods(http.MethodGet)
	r.HandleFunc(wire.RouteResult, a.requireNode(a.result)).Methods(http.MethodPost)
	r.HandleFunc(wire.RouteRenew, a.requireNode(a.renew)).Methods(http.MethodPost)
	r.HandleFunc(wire.RouteHealth, a.requireNode(a.health)).Methods(http.MethodPost)
	r.MethodNotAllowedHandler = problem.NotAllowed(r, "agentapi")
	return r
}

// statusWriter remembers the status for the request log.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(s int) { w.status = s; w.ResponseWriter.WriteHeader(s) }

// logRequests logs each request once, with its route template.
func (a *API) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := a.cfg.Clock.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		route, _ := mux.CurrentRoute(r).GetPathTemplate()
		a.cfg.Logger.Debug("agent request", "component", "agentapi", "method", r.Method, "route", route,
			"node", mux.Vars(r)["id"], "status", sw.status, "duration_seconds", a.cfg.Clock.Since(start).Seconds())
	})
}
