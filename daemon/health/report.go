package health

import (
	"context"
	"errors"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/wire"
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// errReplay aborts the store update of a report that is not newer than
// the one kept.
var errReplay = errors.New("health: report replayed")

// Report judges one report of node n and keeps the verdict; applied is
// false for a replay (the same boot, a sequence not newer than the one
// kept), which changes nothing. A bad report is invalid naming the field
// and stores nothing. A critical verdict then quarantines the node
// (Service.act).
func (s *Service) Report(ctx context.Context, n lifecycle.Node, r wire.HealthReport) (h lifecycle.NodeHealth, applied bool, err error) {
	interval, err := checkReport(r)
	if err != nil {
		return h, false, err
	}
	p, err := s.policy(ctx, n.SiteID)
	if err != nil {
		return h, false, err
	}
	checks := Judge(r, expectedGPUs(n), p)
	now := s.cfg.Clock.Now().UTC()
	var prev lifecycle.NodeHealth
	h, err = s.cfg.Store.UpdateNodeHealth(ctx, n.ID, func(h *lifecycle.NodeHealth, found bool) (*lifecycle.HealthEntry, error) {
		sameBoot := found && h.BootID == r.BootID
		if sameBoot && r.Seq <= h.Seq {
			return nil, errReplay
		}
		prev = *h
		if sameBoot {
			checks = keepXid(checks, h.Checks)
		}
		checks = append(checks, lifecycle.HealthCheck{Name: CheckStaleness, Verdict: lifecycle.HealthHealthy,
			Action: lifecycle.HealthActNone, Reason: "reported at " + now.Format(time.RFC3339)})
		taken := r.TakenAt.UTC()
		h.BootID, h.Seq, h.ReportedAt, h.TakenAt, h.IntervalSeconds = r.BootID, r.Seq, &now, &taken, int(interval.Seconds())
		h.Checks = checks
		h.Verdict, h.Action, h.Reason = Summary(checks)
		h.EscalateDiag = (h.Verdict == lifecycle.HealthDegraded && *p.EscalateOnDegraded) || (sameBoot && prev.EscalateDiag)
		return changed(prev, *h), nil
	})
	if errors.Is(err, errReplay) {
		got, gerr := s.cfg.Store.GetNodeHealth(ctx, n.ID)
		return got, false, gerr
	}
	if err != nil {
		return h, false, err
	}
	s.cfg.Metrics.judged()
	return h, true, s.act(ctx, n, prev, h, p)
}

// changed is the history entry of a verdict that changed, nil otherwise.
func changed(prev, h lifecycle.NodeHealth) *lifecycle.HealthEntry {
	if prev.Verdict == h.Verdict && prev.Action == h.Action {
		return nil
	}
	return &lifecycle.HealthEntry{Kind: lifecycle.HealthEntryVerdict, Verdict: h.Verdict, Action: h.Action, Reason: h.Reason}
}

// keepXid keeps the boot's worst Xid verdict: each report carries only
// the events since the previous one, so an Xid 79 stays critical until
// the host boots again.
func keepXid(checks, prev []lifecycle.HealthCheck) []lifecycle.HealthCheck {
	for _, p := range prev {
		if p.Name != CheckXid {
			continue
		}
		for i, c := range checks {
			if c.Name == CheckXid && p.Verdict.Rank() > c.Verdict.Rank() {
				p.Reason += " (earlier this boot)"
				checks[i] = p
			}
		}
	}
	return checks
}

// expectedGPUs is the node's GPU count: its recorded bill of materials,
// else its SKU's count (0: unknown).
func expectedGPUs(n lifecycle.Node) int {
	if inv := n.Inventory; inv != nil && inv.Recorded != nil && len(inv.Recorded.GPUs) > 0 {
		return len(inv.Recorded.GPUs)
	}
	return n.GPUsTotal
}

// policy is the site's health policy with its defaults.
func (s *Service) policy(ctx context.Context, siteID string) (lifecycle.HealthPolicy, error) {
	sp, err := s.cfg.Store.GetSitePolicy(ctx, siteID)
	if err != nil {
		return lifecycle.HealthPolicy{}, err
	}
	return sp.Health.WithDefaults(), nil
}
