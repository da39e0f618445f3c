// Package notifyfwd is `maas-sidecar maas-notify-forward`: it listens to
// a MAAS region database's machine notifications (daemon/maas/pgnotify)
// and POSTs each, debounced and deduplicated per machine, as a signed
// webhook in the daemon's contract (docs/operations.md, "MAAS webhook
// contract") to a daemon that does not run on the region controller. A
// failed POST is retried with jittered backoff until the daemon takes it
// (2xx) or already has it (409); the hint is only "this machine may have
// changed", so nothing is lost by sending one for a quiet machine.
package notifyfwd
