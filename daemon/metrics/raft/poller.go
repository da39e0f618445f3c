package raft

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/prometheus/client_golang/prometheus"
)

// DefaultInterval is Options.Interval's default.
const DefaultInterval = 5 * time.Second

// Member is one member of the cluster: its address and its role (voter,
// stand-by or spare).
type Member struct{ Address, Role string }

// Sample is the cluster as this member sees it at one moment.
type Sample struct {
	Self    string   // this member's address
	Leader  string   // the leader's address
	Members []Member // as the leader lists them
}

// Source samples the cluster. Errors: any, when no leader answers (no
// quorum, or this member is cut off).
type Source interface {
	Sample(ctx context.Context) (Sample, error)
}

// Options configure a Poller. Source and Registerer are required.
type Options struct {
	Source     Source
	Registerer prometheus.Registerer
	// Interval between samples (DefaultInterval); one sample is bounded
	// by it too.
	Interval time.Duration
	Clock    clockwork.Clock // the real clock when nil
	Logger   *slog.Logger    // discarded when nil
}

// errNoLeader is a sample that names no leader.
var errNoLeader = errors.New("the sample names no leader")

// Poller samples the cluster every Interval and keeps the metrics.
type Poller struct {
	o      Options
	g      gauges
	leader string // the last leader seen, "" before the first
	quorum bool
}

// New registers the metrics with o.Registerer; Run starts sampling.
func New(o Options) *Poller {
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Poller{o: o, g: newGauges(o.Registerer)}
}

// Run samples at once, then every Interval until ctx ends; it returns nil.
func (p *Poller) Run(ctx context.Context) error {
	t := p.o.Clock.NewTicker(p.o.Interval)
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

// Once takes one sample and updates the metrics. Without a leader the
// quorum is 0 and the role and members stay as last seen: only the
// leader can say that they changed. A sample cut short by the end of ctx
// changes nothing.
func (p *Poller) Once(ctx context.Context) {
	sctx, cancel := context.WithTimeout(ctx, p.o.Interval)
	s, err := p.o.Source.Sample(sctx)
	cancel()
	if ctx.Err() != nil {
		return
	}
	if err == nil && s.Leader == "" {
		err = errNoLeader
	}
	if err != nil {
		if p.quorum {
			p.o.Logger.Warn("store cluster: no leader answers", "err", err)
		}
		p.quorum = false
		p.g.quorum.Set(0)
		return
	}
	if !p.quorum {
		p.o.Logger.Info("store cluster: a leader answers", "leader", s.Leader)
	}
	p.quorum = true
	p.g.quorum.Set(1)
	if p.leader != "" && s.Leader != p.leader {
		p.g.changes.Inc()
		p.o.Logger.Info("store cluster: leader changed", "from", p.leader, "to", s.Leader)
	}
	p.leader = s.Leader
	p.g.setRole(roleOf(s))
	p.g.setMembers(s.Members)
}

// roleOf is this member's role in s.
func roleOf(s Sample) string {
	if s.Leader == s.Self {
		return RoleLeader
	}
	for _, m := range s.Members {
		if m.Address == s.Self {
			return m.Role
		}
	}
	return RoleNone
}
