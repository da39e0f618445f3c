package reconcile

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// recordBatch writes plans' observations and drift records in one
// transaction, then takes the judged nodes' actions, each under its
// node's lock; every plan's lock is released on return. A failed write
// takes no action (the next pass judges again).
func (r *Reconciler) recordBatch(ctx context.Context, sc siteCtx, plans []*plan) {
	byID := make(map[string]*plan, len(plans))
	ids := make([]string, len(plans))
	for i, p := range plans {
		ids[i], byID[p.n.ID] = p.n.ID, p
	}
	now := r.now()
	saved, err := r.cfg.Store.UpdateNodeMaasStates(ctx, ids, func(s *lifecycle.NodeMaasState) error {
		p := byID[s.NodeID]
		observe(s, p.n, p.o, now)
		p.opened = false // a transaction retried whole applies fn again
		if p.judged {
			p.opened = applyVerdict(s, p.v, now)
			s.LastReconciledAt = &now
		}
		return nil
	})
	if err != nil {
		r.log.Warn("record node MAAS states", "site", sc.site.ID, "nodes", len(ids), "err", err)
		saved = nil
	}
	recorded := make(map[string]bool, len(saved))
	for _, s := range saved {
		recorded[s.NodeID] = true
	}
	for _, p := range plans {
		if recorded[p.n.ID] && p.opened {
			r.driftOpened(p.n, p.v)
		}
		if !recorded[p.n.ID] || !p.judged || p.v.Action == ActNone {
			p.release()
			p.release = nil
		}
	}
	for _, p := range plans {
		if p.release != nil {
			r.take(ctx, sc, p.n, p.o, p.v)
			p.release()
		}
	}
}
