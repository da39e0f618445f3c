package agentapi

import (
	"context"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// RouteBootstrap is where a manual host fetches its bootstrap script
// with its one-time ticket (seed 001 §9, the bootstrap-script endpoint):
// ?mode=shell (the default) or ?mode=cloud_init. It needs no client
// certificate: the ticket is the credential, and the host checks the
// listener against the daemon's CA bundle that the admin API's command
// carries.
const RouteBootstrap = "/internal/v1/bootstrap/{ticket}"

// BootstrapScripts answers the fetch of a manual host's bootstrap script
// by its ticket's hash (workflow.Deps satisfies it). Errors: invalid for
// an unknown mode, not_found for an unknown ticket, conflict for one used
// or expired.
type BootstrapScripts interface {
	BootstrapScript(ctx context.Context, ticketHash string, m lifecycle.ScriptMode) ([]byte, error)
}

// scriptTypes are the content types of the script modes.
var scriptTypes = map[lifecycle.ScriptMode]string{
	lifecycle.ScriptShell:     "text/x-shellscript; charset=utf-8",
	lifecycle.ScriptCloudInit: "text/cloud-config; charset=utf-8",
}

// bootstrap serves RouteBootstrap. A client address may fetch as often as
// it may enroll (429 beyond); the ticket never reaches a log line (the
// request log names the route template).
func (a *API) bootstrap(w http.ResponseWriter, r *http.Request) {
	const op = "agentapi.bootstrap"
	body, m, err := a.fetchScript(r, op)
	a.cfg.Metrics.fetched(fetchResult(err))
	if err != nil {
		if a.enrollLog.Allow("bootstrap", a.cfg.Clock.Now(), a.cfg.LogEvery) {
			a.cfg.Logger.Warn("bootstrap script refused", "component", "agentapi", "remote", r.RemoteAddr, "err", err)
		}
		writeProblem(w, err)
		return
	}
	w.Header().Set("Content-Type", scriptTypes[m])
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func (a *API) fetchScript(r *http.Request, op string) ([]byte, lifecycle.ScriptMode, error) {
	if a.cfg.Bootstrap == nil {
		return nil, "", lifecycle.Errorf(lifecycle.CodeUnavailable, op, "this daemon serves no bootstrap scripts")
	}
	if ok, after := a.enrollers.allow(r, a.cfg.Clock.Now()); !ok {
		return nil, "", problem.TooManyRequests(op, after)
	}
	m := lifecycle.ScriptMode(r.URL.Query().Get("mode"))
	if m == "" {
		m = lifecycle.ScriptShell
	}
	if !m.Valid() {
		return nil, "", lifecycle.Invalid(op, "mode", "mode %.32q is not shell or cloud_init", m)
	}
	ticket := mux.Vars(r)["ticket"]
	if !plausibleTicket(ticket) { // answered without a store transaction
		return nil, "", lifecycle.Errorf(lifecycle.CodeNotFound, op, "unknown bootstrap ticket")
	}
	body, err := a.cfg.Bootstrap.BootstrapScript(r.Context(), a.cfg.Authority.HashToken(ticket), m)
	return body, m, err
}

// ticketLen is the length of a ticket: 32 random bytes, base64url
// without padding (daemon/pki).
const ticketLen = 43

// plausibleTicket reports whether s has a ticket's shape.
func plausibleTicket(s string) bool {
	if len(s) != ticketLen {
		return false
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// fetchResult is the metric label of a bootstrap fetch: an unknown ticket
// (404) is refused like a used or expired one (409).
func fetchResult(err error) string {
	if problem.Status(err) == http.StatusNotFound {
		return EnrollRefused
	}
	return enrollResult(err, false)
}
