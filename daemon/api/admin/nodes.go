package admin

import (
	"net/http"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// nodeSummary is the inventory view of a node: coarse state only
// (seed 000 §9.1); workflow micro-states stay in the lifecycle detail.
type nodeSummary struct {
	ID       string `json:"id"`
	SiteID   string `json:"site_id"`
	Hostname string `json:"hostname"`
	SKU      string `json:"sku,omitempty"`
	// GPUsTotal, RegionCode and Port are the node's fields of seed 001 §8.1.
	GPUsTotal  int                 `json:"gpus_total"`
	RegionCode string              `json:"region_code,omitempty"`
	Port       int                 `json:"port"`
	Status     lifecycle.NodeState `json:"status"`
}

// runSummary is one run of a node as the lifecycle detail shows it
// (seed 000 §9.2).
type runSummary struct {
	ID                string                 `json:"id"`
	Kind              lifecycle.RunKind      `json:"kind"`
	Status            lifecycle.JobState     `json:"status"`
	CurrentStage      lifecycle.Stage        `json:"current_stage"`
	CurrentAttempt    int                    `json:"current_attempt"`
	FailureClass      lifecycle.FailureClass `json:"failure_class,omitempty"`
	Observed          lifecycle.ObservedMaas `json:"observed"`
	RecommendedAction lifecycle.Action       `json:"recommended_action,omitempty"`
	ErrorMessage      string                 `json:"error_message,omitempty"`
	UpdatedAt         string                 `json:"updated_at"`
}

// nodeDetail is GET /nodes/{id}: the node, its latest run, and every run.
type nodeDetail struct {
	Node    lifecycle.Node `json:"node"`
	Current *runSummary    `json:"current_run,omitempty"`
	Runs    []runSummary   `json:"runs"`
}

// listNodes answers GET /nodes with filters site_id, status and hostname
// (any case), one page in id order.
func (a *API) listNodes(r *http.Request, _ *call) (int, any, error) {
	const op = "admin.listNodes"
	q := r.URL.Query()
	f := lifecycle.NodeFilter{SiteID: q.Get("site_id"), Status: lifecycle.NodeState(q.Get("status")), Hostname: q.Get("hostname")}
	if f.Status != "" && !f.Status.Valid() {
		return 0, nil, lifecycle.Invalid(op, "status", "status %.64q is not a node state", f.Status)
	}
	p, err := readPage(op, q, "nodes", f.SiteID, string(f.Status), strings.ToLower(f.Hostname))
	if err != nil {
		return 0, nil, err
	}
	f.After, f.Limit = p.after, p.limit+1
	nodes, err := a.store.ListNodes(r.Context(), f)
	if err != nil {
		return 0, nil, err
	}
	nodes, next := cutPage(p, nodes, func(n lifecycle.Node) string { return n.ID })
	out := make([]nodeSummary, 0, len(nodes))
	for _, n := range nodes {
		out = append(out, nodeSummary{ID: n.ID, SiteID: n.SiteID, Hostname: n.Hostname, SKU: n.SKU,
			GPUsTotal: n.GPUsTotal, RegionCode: n.RegionCode, Port: n.Port, Status: n.Status})
	}
	return http.StatusOK, listBody("nodes", out, next), nil
}

// listBody is a list page: its items under key, and next_cursor unless
// it is the last page.
func listBody(key string, items any, next string) map[string]any {
	out := map[string]any{key: items}
	if next != "" {
		out["next_cursor"] = next
	}
	return out
}

func (a *API) getNode(r *http.Request, c *call) (int, any, error) {
	n, err := a.store.GetNode(r.Context(), c.vars["id"])
	if err != nil {
		return 0, nil, err
	}
	runs, err := a.store.ListRuns(r.Context(), lifecycle.RunFilter{NodeID: n.ID})
	if err != nil {
		return 0, nil, err
	}
	d := nodeDetail{Node: n, Runs: make([]runSummary, 0, len(runs))}
	for _, run := range runs {
		d.Runs = append(d.Runs, summarize(run))
	}
	if len(d.Runs) > 0 {
		d.Current = &d.Runs[len(d.Runs)-1]
	}
	return http.StatusOK, d, nil
}

func summarize(r lifecycle.Run) runSummary {
	return runSummary{ID: r.ID, Kind: r.Kind, Status: r.Status, CurrentStage: r.CurrentStage,
		CurrentAttempt: r.CurrentAttempt, FailureClass: r.FailureClass, Observed: r.Observed,
		RecommendedAction: r.RecommendedAction, ErrorMessage: r.ErrorMessage,
		UpdatedAt: r.UpdatedAt.UTC().Format("2006-01-02T15:04:05Z07:00")}
}
