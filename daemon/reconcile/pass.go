package reconcile

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// passBatch bounds the nodes recorded in one write transaction of a full
// pass: a site of up to 5,000 machines is one sync, not one per node, and
// no transaction grows past it with the site (dqlite replicates each as
// one entry).
const passBatch = 5000

// Pass reconciles a site's whole machine list (the full resync): every
// node bound to a machine the list lacks is absent from MAAS. epoch is
// Epoch taken before the list was read (0: unknown).
//
// It judges every node first, records the observations and drift in
// batched transactions, then acts (record before acting, as Observe: a
// crash between the two leaves a drift that the next pass acts on). The
// nodes are locked from their fresh read until recorded, and the ones
// with an action until it is taken.
func (r *Reconciler) Pass(ctx context.Context, siteID string, machines []lifecycle.Machine, epoch uint64) (Report, error) {
	sc, err := r.loadSite(ctx, siteID)
	if err != nil {
		return Report{}, err
	}
	seen := make(map[string]lifecycle.Machine, len(machines))
	for _, m := range machines {
		seen[m.SystemID] = m
	}
	var rep Report
	for sid := range seen {
		if _, ok := sc.nodes[sid]; !ok {
			rep.Unmanaged++
		}
	}
	plans, err := r.judgeAll(ctx, sc, seen, epoch, &rep)
	if err != nil {
		return rep, err
	}
	for start := 0; start < len(plans); start += passBatch {
		r.recordBatch(ctx, sc, plans[start:min(start+passBatch, len(plans))])
	}
	r.cfg.Metrics.pass(siteID, rep, r.now())
	return rep, nil
}

// plan is one node's part of a pass: what was seen, the verdict, and the
// node's lock, held until the plan is done.
type plan struct {
	n       lifecycle.Node
	o       Observation
	v       Verdict
	judged  bool // false: a run owns the machine; record the observation only
	opened  bool
	release func()
}

// judgeAll locks the site's nodes (in id order: two passes never wait
// on each other crosswise), re-reads them under the locks and applies
// the rules to each.
func (r *Reconciler) judgeAll(ctx context.Context, sc siteCtx, seen map[string]lifecycle.Machine, epoch uint64, rep *Report) ([]*plan, error) {
	listed := make([]lifecycle.Node, 0, len(sc.nodes))
	for _, n := range sc.nodes {
		listed = append(listed, n)
	}
	slices.SortFunc(listed, func(a, b lifecycle.Node) int { return strings.Compare(a.ID, b.ID) })
	plans := make([]*plan, 0, len(listed))
	for _, n := range listed {
		m, ok := seen[n.MaasSystemID]
		plans = append(plans, &plan{n: n, o: Observation{Present: ok, Machine: m, Epoch: epoch}, release: r.nodes.lock(n.ID)})
	}
	fresh, err := r.cfg.Store.ListNodes(ctx, lifecycle.NodeFilter{SiteID: sc.site.ID})
	if err != nil {
		for _, p := range plans {
			p.release()
		}
		return nil, err
	}
	byID := make(map[string]lifecycle.Node, len(fresh))
	for _, n := range fresh {
		byID[n.ID] = n
	}
	now := r.now()
	kept := plans[:0]
	for _, p := range plans {
		rep.Nodes++
		if !r.judge(sc, p, byID, now, rep) {
			p.release()
			continue
		}
		kept = append(kept, p)
	}
	return kept, nil
}

// judge takes p's verdict on its node as read under the lock; it reports
// whether the node is to be recorded.
func (r *Reconciler) judge(sc siteCtx, p *plan, fresh map[string]lifecycle.Node, now time.Time, rep *Report) bool {
	if r.nodes.stale(p.n.ID, p.o) {
		r.log.Debug("reconcile: observation read before the last action; a newer one follows", "site", p.n.SiteID, "node", p.n.ID)
		return false
	}
	n, ok := fresh[p.n.ID]
	if !ok {
		r.log.Warn("reconcile: node gone during the pass", "site", p.n.SiteID, "node", p.n.ID)
		return false
	}
	p.n = n
	if sc.ownedBy(n) != "" {
		rep.Owned++
		return true
	}
	p.judged, p.v = true, Evaluate(n, p.o, sc.site, sc.policy, now)
	if p.v.Rule != "" {
		rep.Drifted++
	}
	return true
}
