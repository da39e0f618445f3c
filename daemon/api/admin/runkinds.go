package admin

import (
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// runKind is what the run routes of one kind differ in.
type runKind struct {
	answer.RunKind
	// The ops that name the kind's list and recovery in errors.
	listOp, recoverOp string
	// filters reads the kind's own list filters into f and returns the
	// values that bind a cursor to them, in order.
	filters func(op string, q url.Values, f *lifecycle.RunFilter) ([]string, error)
	// batch: a list asked for by batch alone carries the batch's aggregate.
	batch bool
	// view adds the kind's own parts to a run's view (nil: none).
	view func(a *API, r *http.Request, v *answer.RunView) error
}

// runKinds are the kinds of run the admin API serves, each with the
// routes of runRoutes.
var runKinds = []*runKind{
	{RunKind: answer.Onboarding, listOp: "admin.listOnboardings", recoverOp: "admin.recover", batch: true,
		filters: func(_ string, q url.Values, f *lifecycle.RunFilter) ([]string, error) {
			f.BatchID, f.SiteID = q.Get("batch_id"), q.Get("site_id")
			return []string{f.BatchID, f.SiteID}, nil
		}},
	{RunKind: answer.Decommission, listOp: "admin.listDecommissions", recoverOp: "admin.recoverDecommission",
		filters: decommissionFilters, view: decommissionTasks},
	{RunKind: answer.Repair, listOp: "admin.listRepairs", recoverOp: "admin.recoverRepair",
		filters: func(_ string, q url.Values, f *lifecycle.RunFilter) ([]string, error) {
			f.NodeID, f.SiteID = q.Get("node_id"), q.Get("site_id")
			return []string{f.NodeID, f.SiteID}, nil
		}, view: decommissionTasks},
}

// decommissionFilters are node_id, site_id and mode.
func decommissionFilters(op string, q url.Values, f *lifecycle.RunFilter) ([]string, error) {
	f.NodeID, f.SiteID, f.Mode = q.Get("node_id"), q.Get("site_id"), lifecycle.DecommissionMode(q.Get("mode"))
	if f.Mode != "" && f.Mode.Stages() == nil {
		return nil, lifecycle.Invalid(op, "mode", "mode %.64q is not one of soft_reset, reimage, full_decommission, storage_cleanup", f.Mode)
	}
	return []string{f.NodeID, f.SiteID, string(f.Mode)}, nil
}

// decommissionTasks adds a decommission's (or a repair's) agent tasks
// with the evidence their agents returned, and its clean certificate
// once issued.
func decommissionTasks(a *API, r *http.Request, v *answer.RunView) (err error) {
	if v.Certificate, err = a.runCertificate(r.Context(), v.Run.ID); err != nil {
		return err
	}
	tasks, err := a.store.ListTasks(r.Context(), lifecycle.TaskFilter{NodeID: v.Run.NodeID})
	if err != nil {
		return err
	}
	v.Tasks = []answer.Task{}
	for _, t := range tasks {
		if t.RunID == v.Run.ID {
			v.Tasks = append(v.Tasks, answer.TaskOf(t))
		}
	}
	return nil
}
