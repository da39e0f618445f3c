package health

import (
	"context"
	"fmt"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Run sweeps every SweepEvery until ctx ends; a failed sweep is logged
// and the next one tries again.
func (s *Service) Run(ctx context.Context) error {
	t := s.cfg.Clock.NewTicker(s.cfg.SweepEvery)
	defer t.Stop()
	for {
		if err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("health sweep failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.Chan():
		}
	}
}

// Sweep turns the verdict of every active node whose reports stopped
// unknown (after its policy's number of the watch's intervals; a worse
// verdict stays) and counts active nodes by verdict for the metrics.
func (s *Service) Sweep(ctx context.Context) error {
	all, err := s.cfg.Store.ListNodeHealth(ctx)
	if err != nil {
		return err
	}
	now := s.cfg.Clock.Now().UTC()
	by := map[lifecycle.HealthVerdict]int{}
	for _, h := range all {
		n, err := s.cfg.Store.GetNode(ctx, h.NodeID)
		if err != nil {
			return err
		}
		if n.Status != lifecycle.NodeActive {
			continue
		}
		if h, err = s.stale(ctx, n, h, now); err != nil {
			return err
		}
		by[h.Verdict]++
	}
	s.cfg.Metrics.counted(by, float64(now.Unix()))
	return nil
}

// stale marks h unknown when its node has been silent too long.
func (s *Service) stale(ctx context.Context, n lifecycle.Node, h lifecycle.NodeHealth, now time.Time) (lifecycle.NodeHealth, error) {
	if h.ReportedAt == nil || h.IntervalSeconds <= 0 {
		return h, nil
	}
	p, err := s.policy(ctx, n.SiteID)
	if err != nil {
		return h, err
	}
	limit := time.Duration(p.StaleIntervals*h.IntervalSeconds) * time.Second
	silent := now.Sub(*h.ReportedAt)
	if silent <= limit || isStale(h) {
		return h, nil
	}
	why := fmt.Sprintf("no report for %s, more than %d intervals of %ds", silent.Round(time.Second), p.StaleIntervals, h.IntervalSeconds)
	prev := h
	h, err = s.cfg.Store.UpdateNodeHealth(ctx, n.ID, func(h *lifecycle.NodeHealth, _ bool) (*lifecycle.HealthEntry, error) {
		h.Checks = setCheck(h.Checks, lifecycle.HealthCheck{Name: CheckStaleness, Verdict: lifecycle.HealthUnknown,
			Action: lifecycle.HealthActNone, Reason: why})
		h.Verdict, h.Action, h.Reason = Summary(h.Checks)
		return changed(prev, *h), nil
	})
	if err != nil {
		return h, err
	}
	s.log.Warn("node health reports stopped", "site", n.SiteID, "node", n.ID, "verdict", string(h.Verdict))
	if prev.Verdict == h.Verdict {
		return h, nil
	}
	return h, s.publish(ctx, lifecycle.EventHealthChanged, fmt.Sprintf("health-%s-%s-%d-stale", n.ID, h.BootID, h.Seq), n,
		map[string]any{"verdict": h.Verdict, "action": h.Action, "reason": h.Reason, "decision": "recorded"})
}

// isStale reports whether h already says its reports stopped.
func isStale(h lifecycle.NodeHealth) bool {
	for _, c := range h.Checks {
		if c.Name == CheckStaleness {
			return c.Verdict == lifecycle.HealthUnknown
		}
	}
	return false
}

// setCheck replaces the check of c's name in checks, or appends c.
func setCheck(checks []lifecycle.HealthCheck, c lifecycle.HealthCheck) []lifecycle.HealthCheck {
	out := append([]lifecycle.HealthCheck(nil), checks...)
	for i := range out {
		if out[i].Name == c.Name {
			out[i] = c
			return out
		}
	}
	return append(out, c)
}
