package problem

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
)

// methods are the methods a route of the daemon's routers may accept.
var methods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// NotAllowed is r's MethodNotAllowedHandler: 405 problem+json with an
// Allow header listing the methods r's routes accept on the path (RFC 9110
// §15.5.6).
func NotAllowed(r *mux.Router, op string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Allow", strings.Join(Allowed(r, req), ", "))
		Write(w, MethodNotAllowed(op))
	})
}

// Allowed lists the methods r routes req's path with.
func Allowed(r *mux.Router, req *http.Request) []string {
	var out []string
	for _, m := range methods {
		probe := req.Clone(req.Context())
		probe.Method = m
		var match mux.RouteMatch
		if r.Match(probe, &match) && match.MatchErr == nil {
			out = append(out, m)
		}
	}
	return out
}
