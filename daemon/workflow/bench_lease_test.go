package workflow_test

import (
	"flag"
	"sync"
	"testing"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// onboardN is how many onboardings BenchmarkOnboard1000 runs at once: 1,000
// for the figures, fewer to profile (-onboard.n=200).
var onboardN = flag.Int("onboard.n", 1000, "onboardings BenchmarkOnboard1000 runs at once")

// leaseWatch counts the site lease's late renewals: a renewal (or the
// loss of the lease) later than the local deadline of the one before it,
// by which time the runner had cut off and re-entered the site's
// executing stages.
type leaseWatch struct {
	mu    sync.Mutex
	late  int
	last  time.Time     // the last acquisition or renewal
	limit time.Duration // the local lease deadline after it: TTL less the runner's margin (TTL/5)
}

func newLeaseWatch(ttl time.Duration) *leaseWatch { return &leaseWatch{limit: ttl - ttl/5} }

func (w *leaseWatch) event(e runner.LeaseEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch e.Kind {
	case runner.LeaseAcquired, runner.LeaseTakeover, runner.LeaseRenewed:
	case runner.LeaseLost:
		w.late++
		w.last = time.Time{}
		return
	default:
		return
	}
	if !w.last.IsZero() && e.At.Sub(w.last) > w.limit {
		w.late++
	}
	w.last = e.At
}

func (w *leaseWatch) lateRenewals() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.late
}

// reentries counts the stage attempts of evs started more than once: a
// step cut off (a lapsed lease) and re-entered.
func reentries(evs []lifecycle.RunEvent) int {
	type key struct {
		stage   lifecycle.Stage
		attempt int
	}
	seen, n := map[key]bool{}, 0
	for _, e := range evs {
		if e.Status != lifecycle.EventStarted {
			continue
		}
		k := key{e.Stage, e.Attempt}
		if seen[k] {
			n++
		}
		seen[k] = true
	}
	return n
}

// leaderCalls is a store that counts its requests to a remote leader
// (the dqlite store: every statement, and every commit).
type leaderCalls interface {
	Calls() (statements, commits uint64)
}

// callCount is a store's requests and commits to its leader at one
// instant; ok is false for a store that does not count them (bbolt).
type callCount struct {
	stmts, commits uint64
	ok             bool
}

func callsNow(st lifecycle.Store) callCount {
	c, ok := st.(leaderCalls)
	if !ok {
		return callCount{}
	}
	s, n := c.Calls()
	return callCount{s, n, true}
}

// reportCalls reports the requests and commits between before and after
// per stage transition and per run, for a store that counts them.
func reportCalls(b *testing.B, before, after callCount, transitions, runs int) {
	if !after.ok {
		return
	}
	stmts, commits := float64(after.stmts-before.stmts), float64(after.commits-before.commits)
	b.ReportMetric(stmts/float64(transitions), "leader_calls/transition")
	b.ReportMetric(commits/float64(transitions), "commits/transition")
	b.ReportMetric(stmts/float64(runs), "leader_calls/run")
}
