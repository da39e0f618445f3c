// Package notifyfwd is `maas-sidecar maas-notify-forward`: it listens to
// a MAAS region database's machine notifications (daemon/maas/pgnotify)
// and POSTs each, debounced and deduplicated per machine, as a signed
// webhook in the daemon's contract (docs/operations.md, "MAAS webhook
// contract") to a daemon that does not run on the region controller. A
// failed POST is retried with jittered backoff until the daemon takes it
// (2xx) or already has it (409); a 401, 404, 405 or redirect is a wrong
// setting, logged as such and retried too. The hint is only "this
// machine may have changed", so nothing is lost by sending one for a
// quiet machine, and little by dropping one: at most MaxPending machines
// are debounced and as many wait to be sent, whatever a flood of
// notifications holds. Metrics tell whether it listens and delivers.
package notifyfwd
