package feed

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Resync reads the site's whole machine list, wakes the runs of machines
// that changed since the feed last saw them, and runs a full
// reconciliation pass (absent machines included). A site this daemon does
// not follow (Config.Follows: another daemon holds its lease) is refused
// as unavailable: its holder is the one to wake and to act.
func (f *Feed) Resync(ctx context.Context, siteID string) (lifecycle.ReconcileReport, error) {
	if !f.follows(siteID) {
		return lifecycle.ReconcileReport{}, lifecycle.Errorf(lifecycle.CodeUnavailable, "feed.Resync",
			"site %s is driven by another daemon (its lease holder, see cluster status): run the reconciliation through that daemon", siteID)
	}
	m, err := f.connect(ctx, siteID)
	if err != nil {
		return lifecycle.ReconcileReport{}, err
	}
	epoch := f.cfg.Reconciler.Epoch()
	ms, err := m.Machines(ctx, lifecycle.MachineFilter{})
	if err != nil {
		return lifecycle.ReconcileReport{}, err
	}
	obs := make(map[string]lifecycle.Observation, len(ms))
	for _, x := range ms {
		obs[x.SystemID] = lifecycle.Observation{Present: true, Machine: x, Epoch: epoch}
	}
	f.mu.Lock()
	for sid := range f.known[siteID] {
		if _, ok := obs[sid]; !ok {
			obs[sid] = lifecycle.Observation{}
		}
	}
	f.mu.Unlock()
	f.wake(siteID, obs, false)
	f.cfg.Metrics.hints("resync", len(ms))
	return f.cfg.Reconciler.Pass(ctx, siteID, ms, epoch)
}
