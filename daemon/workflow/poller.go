package workflow

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Poller is the site-wide fallback that wakes parked runs: every Interval
// it lists each site's machines once and wakes MachineKey for every
// machine whose observable state changed, and SiteKey when a machine
// appeared. Runs never poll MAAS themselves. The daemon runs daemon/feed
// instead (webhooks, events cursor, resync); Poller stays as the simple
// in-process waker of the workflow tests.
type Poller struct {
	Deps     Deps
	Sites    func(ctx context.Context) ([]lifecycle.Site, error)
	Wake     func(key string)
	Interval time.Duration
	Logger   *slog.Logger
	Clock    clockwork.Clock // nil means the real clock

	seen map[string]map[string]string // site -> system id -> fingerprint
}

// Run polls until ctx ends.
func (p *Poller) Run(ctx context.Context) error {
	c := p.Clock
	if c == nil {
		c = clockwork.NewRealClock()
	}
	t := c.NewTicker(p.Interval)
	defer t.Stop()
	for {
		p.Once(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.Chan():
		}
	}
}

// Once polls every live site one time.
func (p *Poller) Once(ctx context.Context) {
	sites, err := p.Sites(ctx)
	if err != nil {
		p.Logger.Warn("poller: list sites", "err", err)
		return
	}
	if p.seen == nil {
		p.seen = map[string]map[string]string{}
	}
	for _, s := range sites {
		if s.Status == lifecycle.SiteDeleted {
			continue
		}
		if err := p.site(ctx, s); err != nil {
			p.Logger.Warn("poller: site", "site", s.ID, "err", err)
		}
	}
}

func (p *Poller) site(ctx context.Context, s lifecycle.Site) error {
	key, err := p.Deps.Secrets.MAASToken(ctx, s.APITokenVaultPath)
	if err != nil {
		return err
	}
	m, err := p.Deps.Connector.Connect(s.APIBaseURL, key)
	if err != nil {
		return err
	}
	ms, err := m.Machines(ctx, lifecycle.MachineFilter{})
	if err != nil {
		return err
	}
	prev, next := p.seen[s.ID], map[string]string{}
	appeared := false
	for _, x := range ms {
		fp := fmt.Sprintf("%d|%s|%v|%v|%v", x.Status, x.PowerState, x.IPs, x.LastSync, x.HWSyncEnabled)
		next[x.SystemID] = fp
		old, known := prev[x.SystemID]
		if !known {
			appeared = true
		}
		if fp != old {
			p.Wake(lifecycle.MachineKey(x.SystemID))
		}
	}
	for sid := range prev {
		if _, ok := next[sid]; !ok {
			p.Wake(lifecycle.MachineKey(sid)) // deleted: let its run find out
		}
	}
	if appeared {
		p.Wake(lifecycle.SiteKey(s.ID))
	}
	p.seen[s.ID] = next
	return nil
}
