package admin

import (
	"net/http"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/repair"
)

// repairRoutes are the repair runs' own routes beside the run table's:
// start one, record a part's replacement, download the RMA bundle, and
// read a part's history.
func (a *API) repairRoutes() []route {
	return []route{
		{http.MethodPost, Prefix + "/nodes/{id}/repair", operator, a.startRepair},
		{http.MethodPost, Prefix + "/nodes/{id}/parts/replace", operator, a.replacePart},
		{http.MethodGet, Prefix + "/repairs/{id}/rma", viewer, a.rmaBundle},
		{http.MethodGet, Prefix + "/parts/{serial}/history", viewer, a.partHistory},
	}
}

func (a *API) starter() repair.Starter {
	return repair.Starter{Store: a.store, Runner: a.runner, Clock: a.clock,
		NewID: func() (string, error) { return a.newIDs("", 1)[0], nil }}
}

// startRepair answers POST /nodes/{id}/repair: the repair run of a
// quarantined node (diagnostics) or a repair_required one (acceptance).
// Body: {"reason": "..."}. 202 for a new run, 200 with the node's
// unfinished repair run; 409 for a node in another state or run.
func (a *API) startRepair(r *http.Request, c *call) (int, any, error) {
	const op = "admin.startRepair"
	var q answer.ActionRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := checkReason(op, q.Reason); err != nil {
		return 0, nil, err
	}
	st, err := a.starter().Start(r.Context(), c.vars["id"], q.Reason, c.who.Actor())
	if err != nil {
		return 0, nil, err
	}
	return a.started(r, c, st, "repair.create", q.Reason, nil)
}

// replacePart answers POST /nodes/{id}/parts/replace: the replacement of
// a repair_required node's part (old_serial, new_serial, kind gpu|drive|other,
// ticket_id, reason) updates its bill of materials and starts the
// acceptance run. 422 naming the field for bad input, 409 for a node not
// repair_required: either changes nothing.
func (a *API) replacePart(r *http.Request, c *call) (int, any, error) {
	const op = "admin.replacePart"
	var q answer.PartReplacementRequest
	if err := problem.Decode(r, op, &q); err != nil {
		return 0, nil, err
	}
	if err := q.Validate(op); err != nil {
		return 0, nil, err
	}
	st, err := a.starter().Replace(r.Context(), c.vars["id"], q, c.who.Actor())
	if err != nil {
		return 0, nil, err
	}
	return a.started(r, c, st, "node.part.replace", q.Reason, map[string]string{"old_serial": q.OldSerial,
		"new_serial": q.NewSerial, "kind": string(q.Kind), "ticket_id": q.TicketID})
}

// started audits and answers a started repair run.
func (a *API) started(r *http.Request, c *call, st repair.Started, action, reason string, more map[string]string) (int, any, error) {
	run := st.Run
	out := answer.RepairResult{RepairID: run.ID, NodeID: run.NodeID, Stage: lifecycle.RepairStage(run), Status: run.Status}
	if st.Existing {
		return http.StatusOK, out, nil
	}
	corr := map[string]string{"node_id": run.NodeID, "site_id": run.SiteID, "stage": string(out.Stage)}
	for k, v := range more {
		corr[k] = v
	}
	r.Header.Set(ReasonHeader, reason)
	a.audit(r.Context(), r, c, change{action: action, kind: "run", id: run.ID, expected: string(lifecycle.JobPending), correlated: corr})
	return http.StatusAccepted, out, nil
}
