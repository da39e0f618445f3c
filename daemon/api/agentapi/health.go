package agentapi

import (
	"context"
	"net/http"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// maxHealthBody bounds a health report: eight GPUs with their NVLinks
// and a boot's Xid events fit with room; more is refused unread (400).
const maxHealthBody = 512 << 10

// HealthJudge judges a node's passive health report and keeps the
// verdict (daemon/health's Service satisfies it). applied is false for
// a replay, which changes nothing. Errors: invalid naming the field (the
// report stored nothing), not_found, unavailable.
type HealthJudge interface {
	Report(ctx context.Context, n lifecycle.Node, r wire.HealthReport) (h lifecycle.NodeHealth, applied bool, err error)
}

// health takes one report of the agent's passive watch: the
// certificate's node must be {id} (requireNode); a bad body is a 400
// naming the member and stores nothing; a replay is answered as taken
// (204) and ignored.
func (a *API) health(w http.ResponseWriter, r *http.Request, n lifecycle.Node) {
	const op = "agentapi.health"
	if a.cfg.Health == nil {
		writeProblem(w, lifecycle.Errorf(lifecycle.CodeUnavailable, op, "this daemon does not judge node health"))
		return
	}
	var rep wire.HealthReport
	r.Body = http.MaxBytesReader(nil, r.Body, maxHealthBody)
	if err := problem.Decode(r, op, &rep); err != nil {
		writeProblem(w, err)
		return
	}
	_, err := bounded(r.Context(), a.cfg.StoreTimeout, op, func(ctx context.Context) (bool, error) {
		_, applied, err := a.cfg.Health.Report(ctx, n, rep)
		return applied, err
	})
	if err != nil {
		writeProblem(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
