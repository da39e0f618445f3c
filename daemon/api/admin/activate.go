package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// activateNode returns a quarantined node to service: seed 000 §3.3's
// quarantined -> active, "explicit operator recovery after the node is
// proven healthy again". MAAS must show the machine Deployed; the node's
// open drift, if any, is resolved with it. Body: {"reason": "..."}.
func (a *API) activateNode(r *http.Request, c *call) (int, any, error) {
	const op = "admin.activateNode"
	var q answer.ActionRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := checkReason(op, q.Reason); err != nil {
		return 0, nil, err
	}
	ctx, id := r.Context(), c.vars["id"]
	n, err := a.store.GetNode(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	if !lifecycle.CanActivate(n.Status) {
		return 0, nil, lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is %s; only a quarantined node is activated", id, n.Status)
	}
	st, err := a.store.GetNodeMaasState(ctx, id)
	if lifecycle.ErrorCode(err) == lifecycle.CodeNotFound || (err == nil && (!st.Present || st.LastStatus != "Deployed")) {
		return 0, nil, lifecycle.Errorf(lifecycle.CodeConflict, op,
			"MAAS shows node %s's machine as %q; activate it once MAAS has it Deployed", id, orAbsent(st))
	}
	if err != nil {
		return 0, nil, err
	}
	n, err = a.store.TransitionNode(ctx, lifecycle.NodeTransition{NodeID: id, From: lifecycle.NodeQuarantined,
		To: lifecycle.NodeActive, Context: lifecycle.TransitionContext{Actor: lifecycle.ActorOperator}})
	if err != nil {
		return 0, nil, err
	}
	if st.DriftDetected {
		now := a.now().UTC()
		_, err = a.store.UpdateNodeMaasState(ctx, id, func(s *lifecycle.NodeMaasState) error {
			s.DriftDetected, s.DriftResolvedAt, s.DriftResolvedBy = false, &now, c.who.Actor()
			return nil
		})
	}
	r.Header.Set(ReasonHeader, q.Reason)
	a.audit(ctx, r, c, change{action: "node.activate", kind: "node", id: id, prior: string(lifecycle.NodeQuarantined),
		expected: string(lifecycle.NodeActive), correlated: map[string]string{"site_id": n.SiteID, "maas_system_id": n.MaasSystemID}})
	return http.StatusOK, n, err
}

func orAbsent(st lifecycle.NodeMaasState) string {
	if !st.Present {
		return "absent"
	}
	return st.LastStatus
}
