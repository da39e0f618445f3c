package admin

import (
	"context"
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Health records the faults the GPU cloud reports and acts on them
// (daemon/health's Service satisfies it). Errors: invalid naming the
// field (nothing stored), not_found, conflict for an idempotency key
// reused for another fault.
type Health interface {
	Fault(ctx context.Context, nodeID string, f lifecycle.Fault) (lifecycle.HealthEntry, bool, error)
}

// healthHistory is how many history entries GET /nodes/{id}/health shows.
const healthHistory = 50

func (a *API) healthRoutes() []route {
	return []route{
		{http.MethodGet, Prefix + "/nodes/{id}/health", viewer, a.getNodeHealth},
		{http.MethodPost, Prefix + "/nodes/{id}/faults", operator, a.reportFault},
	}
}

// getNodeHealth answers the node's verdict, checks and newest history.
func (a *API) getNodeHealth(r *http.Request, c *call) (int, any, error) {
	ctx, id := r.Context(), c.vars["id"]
	n, err := a.store.GetNode(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	h, err := a.store.GetNodeHealth(ctx, n.ID)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound {
		h, err = lifecycle.NodeHealth{NodeID: n.ID, SiteID: n.SiteID, Verdict: lifecycle.HealthUnknown,
			Action: lifecycle.HealthActNone, Reason: "no health report yet", Checks: []lifecycle.HealthCheck{}}, nil
	}
	if err != nil {
		return 0, nil, err
	}
	hist, err := a.store.HealthHistory(ctx, n.ID, healthHistory)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, answer.NodeHealthView{Health: h, History: hist}, nil
}

// reportFault records a fault the GPU cloud reports, once per
// Idempotency-Key (header or body field), and answers what was decided:
// 201 the first time, 200 for a retry.
func (a *API) reportFault(r *http.Request, c *call) (int, any, error) {
	const op = "admin.reportFault"
	var q answer.FaultRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	key, err := idempotencyKey(r, op)
	if err != nil {
		return 0, nil, err
	}
	if key != "" && q.IdempotencyKey != "" && key != q.IdempotencyKey {
		return 0, nil, lifecycle.Invalid(op, "idempotency_key", "idempotency_key and the %s header differ", IdempotencyHeader)
	}
	if q.IdempotencyKey == "" {
		q.IdempotencyKey = key
	}
	f := lifecycle.Fault{Kind: q.Kind, Reporter: q.Reporter, Text: q.Text, IdempotencyKey: q.IdempotencyKey}
	if err := f.Validate(); err != nil {
		return 0, nil, err
	}
	if a.health == nil {
		return 0, nil, unwired("node health")
	}
	ctx, id := r.Context(), c.vars["id"]
	e, created, err := a.health.Fault(ctx, id, f)
	if err != nil {
		return 0, nil, err
	}
	n, err := a.store.GetNode(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		a.audit(ctx, r, c, change{action: "node.fault.report", kind: "node", id: id, prior: "",
			expected: e.Decision, correlated: map[string]string{"site_id": n.SiteID, "fault_kind": q.Kind, "idempotency_key": q.IdempotencyKey}})
	}
	return status, answer.FaultAnswer{Entry: e, Created: created, NodeStatus: n.Status}, nil
}
