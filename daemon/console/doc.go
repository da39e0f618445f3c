// Package console is the operator console: server-rendered HTML pages
// under /console/ on the admin listener for the fleet, runs and their
// stages, batches, drift, decommission evidence and the audit log, with
// the recovery actions, node activation and decommission start.
//
// The console holds no business logic of its own: every read and every
// action is a call to the admin API's handler in-process, made with the
// signed-in operator's token, so roles, reasons, validation and audit
// are the API's. The token is given once on the sign-in form and kept in
// memory only, behind an opaque session cookie (HttpOnly,
// SameSite=Strict, Secure under TLS, expiring); it never reaches a URL,
// a page or a log line. Every form carries a per-session CSRF token and
// every page a strict Content-Security-Policy; the pages read without
// JavaScript, and one small embedded script refreshes running runs.
package console
