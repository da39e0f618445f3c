package runner

import (
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// LeaseEventKind names what happened to a site lease on this runner.
type LeaseEventKind string

// Lease event kinds.
const (
	// LeaseAcquired: this runner now holds the site (a free, released or
	// its own lease).
	LeaseAcquired LeaseEventKind = "acquired"
	// LeaseTakeover: this runner now holds a site last held by another
	// daemon, whose lease expired.
	LeaseTakeover LeaseEventKind = "takeover"
	// LeaseRenewed: the holder extended its lease.
	LeaseRenewed LeaseEventKind = "renewed"
	// LeaseLost: the lease was superseded, refused or lapsed; the site's
	// steps were stopped.
	LeaseLost LeaseEventKind = "lost"
	// LeaseReleased: the runner gave the lease up (shutdown or handover).
	LeaseReleased LeaseEventKind = "released"
	// LeaseStandby: a claim was refused; another daemon holds the site.
	LeaseStandby LeaseEventKind = "standby"
)

// LeaseEvent is one change of a site lease seen by this runner, for
// metrics. Lease is the lease concerned (for standby, the other holder's
// as last read, possibly zero).
type LeaseEvent struct {
	Kind  LeaseEventKind
	Site  string
	Lease lifecycle.Lease
	At    time.Time
}

func (r *Runner) leaseEvent(k LeaseEventKind, site string, l lifecycle.Lease) {
	if r.opt.OnLease != nil {
		r.opt.OnLease(LeaseEvent{Kind: k, Site: site, Lease: l, At: r.opt.Clock.Now()})
	}
}
