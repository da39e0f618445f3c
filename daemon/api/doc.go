// Package api is the daemon's HTTP surface on the admin listener: the
// unauthenticated probes /healthz (liveness), /readyz (readiness: the
// daemon has started, is not stopping, and its store answers) and /metrics
// (Prometheus), and a Slot under /api/ where the admin API (package
// admin) is installed once the store is open. Errors are written by
// package problem.
//
// api never imports an adapter: it declares the small interfaces it
// consumes (Checker) and the wiring in daemon/cmd passes implementations.
package api
