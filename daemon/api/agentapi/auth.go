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
// another node's) and whose node exists and is not deleted.
func (a *API) requireNode(next nodeHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n, err := a.authenticate(r.Context(), r, mux.Vars(r)["id"])
		if err != nil {
			writeProblem(w, err)
			return
		}
		next(w, r, n)
	}
}

func (a *API) authenticate(ctx context.Context, r *http.Request, id string) (lifecycle.Node, error) {
	const op = "agentapi.authenticate"
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 || len(r.TLS.VerifiedChains) == 0 {
		return lifecycle.Node{}, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "a client certificate is required")
	}
	certID, err := wire.NodeIDFromCert(r.TLS.PeerCertificates[0])
	if err != nil {
		return lifecycle.Node{}, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "the client certificate names no node")
	}
	if certID != id {
		return lifecycle.Node{}, lifecycle.Errorf(lifecycle.CodeForbidden, op, "the client certificate belongs to another node")
	}
	n, err := a.cfg.Store.GetNode(ctx, id)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		return lifecycle.Node{}, lifecycle.Errorf(lifecycle.CodeUnauthorized, op, "unknown node %s", id)
	}
	if err != nil {
		return lifecycle.Node{}, err
	}
	if n.Status == lifecycle.NodeDeleted {
		return lifecycle.Node{}, lifecycle.Errorf(lifecycle.CodeForbidden, op, "node %s is deleted", id)
	}
	return n, nil
}
