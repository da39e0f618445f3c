package admin

import (
	"net/http"
	"net/http/pprof"
)

// DebugPrefix is where the Go runtime's profiles are served (the
// net/http/pprof handlers), on the admin listener, to admins only: a
// profile names the daemon's code paths and its command line.
const DebugPrefix = "/debug/pprof/"

// debugRoutes are the profiling routes: the index and each profile by name
// (heap, allocs, goroutine, profile?seconds=N, trace?seconds=N, ...).
func (a *API) debugRoutes() []route {
	return []route{
		{http.MethodGet, DebugPrefix, admin, a.pprof},
		{http.MethodGet, DebugPrefix + "{profile}", admin, a.pprof},
	}
}

// pprof answers with the named profile, or the index; an unknown profile
// is net/http/pprof's own 404.
func (a *API) pprof(r *http.Request, c *call) (int, any, error) {
	h := pprofHandler(c.vars["profile"])
	return http.StatusOK, stream(func(w http.ResponseWriter) error {
		h.ServeHTTP(w, r)
		return nil
	}), nil
}

// pprofHandler is net/http/pprof's handler for name; Index serves the
// index and every runtime profile by the path's last element.
func pprofHandler(name string) http.Handler {
	switch name {
	case "cmdline":
		return http.HandlerFunc(pprof.Cmdline)
	case "profile":
		return http.HandlerFunc(pprof.Profile)
	case "symbol":
		return http.HandlerFunc(pprof.Symbol)
	case "trace":
		return http.HandlerFunc(pprof.Trace)
	}
	return http.HandlerFunc(pprof.Index)
}
