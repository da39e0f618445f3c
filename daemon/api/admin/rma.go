package admin

import (
	"encoding/json"
	"net/http"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/repair"
)

// rmaBundle answers GET /repairs/{id}/rma: the RMA bundle (repair.Bundle)
// of a repair run that found a failed part, built from its diagnostics'
// evidence, the node's bill of materials and each part's history. 409
// while the run has not found one.
func (a *API) rmaBundle(r *http.Request, c *call) (int, any, error) {
	const op = "admin.rmaBundle"
	ctx := r.Context()
	run, err := a.store.GetRun(ctx, c.vars["id"])
	if err == nil && run.Kind != lifecycle.RunRepair {
		err = lifecycle.Errorf(lifecycle.CodeNotFound, op, "repair %q not found", run.ID)
	}
	if err != nil {
		return 0, nil, err
	}
	if run.Vars["repair_outcome"] != string(lifecycle.NodeRepairRequired) {
		return 0, nil, lifecycle.Errorf(lifecycle.CodeConflict, op, "repair %s found no failed part (it is %s)", run.ID, run.Status)
	}
	n, err := a.store.GetNode(ctx, run.NodeID)
	if err != nil {
		return 0, nil, err
	}
	ev, err := a.repairEvidence(r, run)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, repair.NewBundle(run, n, ev, func(serial string) []lifecycle.PartEvent {
		h, _ := a.store.PartHistory(ctx, serial) // none: the bundle says none
		return h
	}), nil
}

// repairEvidence is the run's node.validate_clean evidence.
func (a *API) repairEvidence(r *http.Request, run lifecycle.Run) (wire.Evidence, error) {
	var ev wire.Evidence
	tasks, err := a.store.ListTasks(r.Context(), lifecycle.TaskFilter{NodeID: run.NodeID})
	if err != nil {
		return ev, err
	}
	for _, t := range tasks {
		if t.RunID == run.ID && t.Type == lifecycle.TaskValidateClean && t.Result != nil {
			if err := json.Unmarshal(t.Result.Evidence, &ev); err != nil {
				return ev, lifecycle.Wrap(lifecycle.CodeInternal, "admin.rmaBundle", err)
			}
			return ev, nil
		}
	}
	return ev, lifecycle.Errorf(lifecycle.CodeConflict, "admin.rmaBundle", "repair %s has no diagnostics' evidence", run.ID)
}

// partHistory answers GET /parts/{serial}/history: the serial's
// failures, repairs, replacements and the nodes it was in, oldest
// first; 404 naming the serial when it has none.
func (a *API) partHistory(r *http.Request, c *call) (int, any, error) {
	serial := c.vars["serial"]
	h, err := a.store.PartHistory(r.Context(), serial)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, answer.PartHistory{Serial: serial, Events: h}, nil
}
