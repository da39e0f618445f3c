package agentapi

import (
	"context"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

type nodeHandler func(w http.ResponseWriter, r *http.Request, n lifecycle.Node)

// requireNode admits a request only with a verified client certificate
// whose node identity is the route's {id} (401 without one, 403 for
// another node's), whose node exists and is not deleted, and whose serial
// is the node's current one (or the previous one within the renewal
// overlap): a copied, superseded or revoked certificate is 401.
func (a *API) requireNode(next nodeHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n, reason, err := a.authenticate(r.Context(), r, mux.Vars(r)["id"])
		if err != nil {
			if reason != "" {
				a.refusedAuth(r, reason)
			}
			writeProblem(w, err)
			return
		}
		next(w, r, n)
	}
}

// authenticate returns the node, or the refusal reason and its error.
func (a *API) authenticate(ctx context.Context, r *http.Request, id string) (lifecycle.Node, string, error) {
	const op = "agentapi.authenticate"
	refuse := func(reason string, code lifecycle.Code, format string, args ...any) (lifecycle.Node, string, error) {
		return lifecycle.Node{}, reason, lifecycle.Errorf(code, op, format, args...)
	}
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 || len(r.TLS.VerifiedChains) == 0 {
		return refuse(AuthNoCertificate, lifecycle.CodeUnauthorized, "a client certificate is required")
	}
	certID, err := wire.NodeIDFromCert(r.TLS.PeerCertificates[0])
	if err != nil {
		return refuse(AuthBadCertificate, lifecycle.CodeUnauthorized, "the client certificate names no node")
	}
	if certID != id {
		return refuse(AuthOtherNode, lifecycle.CodeForbidden, "the client certificate belongs to another node")
	}
	n, err := a.cfg.Store.GetNode(ctx, id)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return refuse(AuthUnknownNode, lifecycle.CodeUnauthorized, "unknown node %s", id)
	}
	if err != nil {
		return lifecycle.Node{}, "", err
	}
	if n.Status == lifecycle.NodeDeleted {
		return refuse(AuthDeleted, lifecycle.CodeForbidden, "node %s is deleted", id)
	}
	switch n.CheckAgentCert(serialOf(r), a.cfg.Clock.Now()) {
	case lifecycle.CertRevoked:
		return refuse(AuthRevoked, lifecycle.CodeUnauthorized,
			"node %s has no valid agent certificate; enroll again with a new token", id)
	case lifecycle.CertSuperseded:
		return refuse(AuthSuperseded, lifecycle.CodeUnauthorized,
			"the client certificate was superseded by a newer one; enroll again with a new token")
	case lifecycle.CertCurrent:
		if n.PrevAgentCertSerial != "" {
			return a.endOverlap(ctx, n)
		}
	}
	return n, "", nil
}

// endOverlap retires the previous serial at the first use of the current.
func (a *API) endOverlap(ctx context.Context, n lifecycle.Node) (lifecycle.Node, string, error) {
	serial := n.AgentCertSerial
	n, err := a.cfg.Store.UpdateNode(ctx, n.ID, func(x *lifecycle.Node) error {
		if x.AgentCertSerial == serial {
			x.EndCertOverlap()
		}
		return nil
	})
	return n, "", err
}

// serialOf is the presented certificate's serial as the node records it.
func serialOf(r *http.Request) string {
	return r.TLS.PeerCertificates[0].SerialNumber.Text(16)
}

// refusedAuth counts a refusal and logs it once per node and reason a
// minute. The serial is logged, never answered.
func (a *API) refusedAuth(r *http.Request, reason string) {
	a.cfg.Metrics.refused(reason)
	node := mux.Vars(r)["id"]
	if !a.authLog.Allow(node+"\x00"+reason, a.cfg.Clock.Now(), a.cfg.LogEvery) {
		return
	}
	serial := ""
	if r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
		serial = serialOf(r)
	}
	a.cfg.Logger.Warn("agent certificate refused", "component", "agentapi", "node", node, "reason", reason,
		"serial", serial, "remote", r.RemoteAddr)
}
