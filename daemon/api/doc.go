// Package api is the daemon's HTTP surface on the admin listener. For now it
// serves the unauthenticated probes: /healthz (liveness), /readyz
// (readiness: the daemon has started, is not stopping, and its store
// answers) and /metrics (Prometheus). The admin, agent and webhook routes
// join the same router as their issues land.
//
// api never imports an adapter: it declares the small interfaces it
// consumes (Checker) and the wiring in daemon/cmd passes implementations.
package api
