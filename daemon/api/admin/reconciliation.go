package admin

import (
	"context"
	"net/http"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/api/problem"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// siteReconciliation is one site's line of GET /reconciliation/status
// (seed 001 §6.6): nodes bound to MAAS, how many agree with it, drift,
// and how many were never reconciled.
type siteReconciliation struct {
	SiteID           string     `json:"site_id"`
	Nodes            int        `json:"nodes"`
	OK               int        `json:"ok"`
	Drifted          int        `json:"drifted"`
	Unreconciled     int        `json:"unreconciled"`
	LastReconciledAt *time.Time `json:"last_reconciled_at,omitempty"`
}

func (a *API) reconciliationStatus(r *http.Request, _ *call) (int, any, error) {
	ctx := r.Context()
	sites, err := a.store.ListSites(ctx)
	if err != nil {
		return 0, nil, err
	}
	want := r.URL.Query().Get("site_id")
	out := []siteReconciliation{}
	for _, s := range sites {
		if s.Status == lifecycle.SiteDeleted || (want != "" && s.ID != want) {
			continue
		}
		line, err := a.siteReconciliation(ctx, s.ID)
		if err != nil {
			return 0, nil, err
		}
		out = append(out, line)
	}
	return http.StatusOK, map[string]any{"sites": out}, nil
}

func (a *API) siteReconciliation(ctx context.Context, siteID string) (siteReconciliation, error) {
	line := siteReconciliation{SiteID: siteID}
	nodes, err := a.store.ListNodes(ctx, lifecycle.NodeFilter{SiteID: siteID})
	if err != nil {
		return line, err
	}
	states, err := a.store.ListNodeMaasStates(ctx, lifecycle.MaasStateFilter{SiteID: siteID})
	if err != nil {
		return line, err
	}
	byNode := map[string]lifecycle.NodeMaasState{}
	for _, s := range states {
		byNode[s.NodeID] = s
	}
	for _, n := range nodes {
		if n.MaasSystemID == "" || n.Status == lifecycle.NodeDeleted {
			continue
		}
		line.Nodes++
		s, ok := byNode[n.ID]
		switch {
		case !ok || s.LastReconciledAt == nil:
			line.Unreconciled++
		case s.DriftDetected:
			line.Drifted++
		default:
			line.OK++
		}
		if ok && s.LastReconciledAt != nil && (line.LastReconciledAt == nil || s.LastReconciledAt.After(*line.LastReconciledAt)) {
			line.LastReconciledAt = s.LastReconciledAt
		}
	}
	return line, nil
}

// listDrift answers GET /reconciliation/drift[?site_id=][&node_id=]: the
// open drift, one page in node id order read from the store; node_id
// reads that node's record alone.
func (a *API) listDrift(r *http.Request, _ *call) (int, any, error) {
	const op = "admin.listDrift"
	q := r.URL.Query()
	f := lifecycle.MaasStateFilter{SiteID: q.Get("site_id"), DriftOnly: true}
	p, err := readPage(op, q, "drift", f.SiteID, q.Get("node_id"))
	if err != nil {
		return 0, nil, err
	}
	if id := q.Get("node_id"); id != "" {
		return a.nodeDrift(r.Context(), f.SiteID, id)
	}
	f.After, f.Limit = p.after, p.limit+1
	drift, err := a.store.ListNodeMaasStates(r.Context(), f)
	if err != nil {
		return 0, nil, err
	}
	drift, next := cutPage(p, drift, func(s lifecycle.NodeMaasState) string { return s.NodeID })
	return http.StatusOK, listBody("drift", drift, next), nil
}

// nodeDrift is GET /reconciliation/drift?node_id=: the node's open
// drift as a one-item list, empty when it has none (or no record, or is
// not in site when one is named).
func (a *API) nodeDrift(ctx context.Context, site, id string) (int, any, error) {
	drift := []lifecycle.NodeMaasState{}
	st, err := a.store.GetNodeMaasState(ctx, id)
	switch {
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound:
	case err != nil:
		return 0, nil, err
	case st.DriftDetected && (site == "" || site == st.SiteID):
		drift = append(drift, st)
	}
	return http.StatusOK, listBody("drift", drift, ""), nil
}

// resolveDrift is the admin acknowledging a node's drift after acting on
// it (seed 001 §6.6). It changes no node state: returning a quarantined
// node to service is a separate, deliberate step.
func (a *API) resolveDrift(r *http.Request, c *call) (int, any, error) {
	const op = "admin.resolveDrift"
	id := c.vars["node_id"]
	var prior lifecycle.DriftRule
	st, err := a.store.UpdateNodeMaasState(r.Context(), id, func(s *lifecycle.NodeMaasState) error {
		if !s.DriftDetected {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s has no open drift", id)
		}
		now := a.now().UTC()
		prior = s.DriftRule
		s.DriftDetected, s.DriftResolvedAt, s.DriftResolvedBy = false, &now, c.who.Actor()
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "reconciliation.resolve_drift", kind: "node", id: id,
		prior: string(prior), expected: "drift resolved", correlated: map[string]string{"site_id": st.SiteID}})
	return http.StatusOK, st, nil
}

// runReconciliation resyncs one site now: {"site_id": "..."}.
func (a *API) runReconciliation(r *http.Request, c *call) (int, any, error) {
	const op = "admin.runReconciliation"
	var in struct {
		SiteID string `json:"site_id"`
	}
	if err := problem.Decode(r, op, &in); err != nil {
		return 0, nil, err
	}
	if in.SiteID == "" {
		return 0, nil, lifecycle.Invalid(op, "site_id", "site_id is required")
	}
	if _, err := a.store.GetSite(r.Context(), in.SiteID); err != nil {
		return 0, nil, err
	}
	rep, err := a.recon.Resync(r.Context(), in.SiteID)
	if err != nil {
		return 0, nil, err
	}
	a.audit(r.Context(), r, c, change{action: "reconciliation.run", kind: "site", id: in.SiteID, expected: "site reconciled"})
	return http.StatusOK, map[string]any{"site_id": in.SiteID, "report": rep}, nil
}
