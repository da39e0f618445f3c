package console

import (
	"net/http"
	"net/url"

	"github.com/gpuaas/maas-sidecar/daemon/api/answer"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// runRow is a line of a node's runs history (GET /nodes/{id}).
type runRow struct {
	ID                string
	Kind              lifecycle.RunKind
	Status            lifecycle.JobState
	CurrentStage      lifecycle.Stage        `json:"current_stage"`
	CurrentAttempt    int                    `json:"current_attempt"`
	FailureClass      lifecycle.FailureClass `json:"failure_class"`
	RecommendedAction lifecycle.Action       `json:"recommended_action"`
	ErrorMessage      string                 `json:"error_message"`
	UpdatedAt         string                 `json:"updated_at"`
	Observed          lifecycle.ObservedMaas
}

// nodeData is the node page: the node with its MAAS binding, what the
// reconciler last observed in MAAS and its open drift, and its runs.
type nodeData struct {
	Node     lifecycle.Node
	Runs     []runRow
	Observed lifecycle.ObservedMaas // as the latest run last saw it
	Drift    *lifecycle.NodeMaasState
	// Health is the node's health verdict with its checks and history.
	Health answer.NodeHealthView
	CanAct bool // the session's role may act at all
	// CanActivate and CanDecommission: the node's state allows the action
	// (the lifecycle's rules, which the admin API enforces).
	CanActivate, CanDecommission bool
}

func (c *Console) node(w http.ResponseWriter, r *http.Request, s *session) {
	var d nodeData
	var detail struct {
		Node lifecycle.Node
		Runs []runRow
	}
	id := r.PathValue("id")
	if err := c.get(r.Context(), s, "/nodes/"+url.PathEscape(id), nil, &detail); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	d.Node, d.Runs, d.CanAct = detail.Node, detail.Runs, canAct(s)
	d.CanActivate, d.CanDecommission = lifecycle.CanActivate(d.Node.Status), lifecycle.CanDecommission(d.Node.Status)
	if len(d.Runs) > 0 {
		d.Observed = d.Runs[len(d.Runs)-1].Observed
	}
	var drift struct{ Drift []lifecycle.NodeMaasState }
	if err := c.get(r.Context(), s, "/reconciliation/drift", url.Values{"node_id": {id}}, &drift); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	if len(drift.Drift) > 0 {
		d.Drift = &drift.Drift[0]
	}
	if err := c.get(r.Context(), s, "/nodes/"+url.PathEscape(id)+"/health", nil, &d.Health); err != nil {
		c.apiFail(w, r, s, err)
		return
	}
	c.render(w, r, http.StatusOK, "node", view{Title: "Node " + d.Node.Hostname, Session: s, Data: d})
}
