package reconcile

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// siteCtx is what one reconciliation of a site reads once.
type siteCtx struct {
	site   lifecycle.Site
	policy lifecycle.SitePolicy
	all    []lifecycle.Node
	nodes  map[string]lifecycle.Node // by MAAS system id, reconcilable nodes only
	owned  map[string]string         // MAAS system id or node id -> active run id
}

// activeRun are the run states that own their machine: a run that is
// driving it, undoing it, or failed and waiting for an operator.
var activeRun = []lifecycle.JobState{lifecycle.JobPending, lifecycle.JobRunning, lifecycle.JobCompensating,
	lifecycle.JobFailedRetryable, lifecycle.JobFailedManualIntervention}

func (r *Reconciler) loadSite(ctx context.Context, siteID string) (siteCtx, error) {
	site, err := r.cfg.Store.GetSite(ctx, siteID)
	if err != nil {
		return siteCtx{}, err
	}
	p, err := r.cfg.Store.GetSitePolicy(ctx, siteID)
	if err != nil {
		return siteCtx{}, err
	}
	nodes, err := r.cfg.Store.ListNodes(ctx, lifecycle.NodeFilter{SiteID: siteID})
	if err != nil {
		return siteCtx{}, err
	}
	runs, err := r.cfg.Store.ListRuns(ctx, lifecycle.RunFilter{SiteID: siteID, Statuses: activeRun})
	if err != nil {
		return siteCtx{}, err
	}
	sc := siteCtx{site: site, policy: p, all: nodes, nodes: map[string]lifecycle.Node{}, owned: map[string]string{}}
	for _, n := range nodes {
		if n.MaasSystemID != "" && n.Status != lifecycle.NodeDeleted {
			sc.nodes[n.MaasSystemID] = n
		}
	}
	for _, run := range runs {
		for _, k := range []string{run.MaasSystemID, run.NodeID} {
			if k != "" {
				sc.owned[k] = run.ID
			}
		}
	}
	return sc, nil
}

// ownedBy returns the active run that owns node n's machine, if any.
func (sc siteCtx) ownedBy(n lifecycle.Node) string {
	if id := sc.owned[n.MaasSystemID]; id != "" {
		return id
	}
	return sc.owned[n.ID]
}
