package api

import (
	"net/http"
	"sync/atomic"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Slot is a handler installed after the listener is bound: the admin API
// needs the store, which opens after the probes already answer. Until Set,
// it answers 503. Safe for concurrent use.
type Slot struct {
	h atomic.Pointer[http.Handler]
}

// Set installs h.
func (s *Slot) Set(h http.Handler) { s.h.Store(&h) }

// ServeHTTP serves the installed handler, or 503 before there is one.
func (s *Slot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := s.h.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	problem.Write(w, lifecycle.Errorf(lifecycle.CodeUnavailable, "api", "the daemon is starting"))
}
