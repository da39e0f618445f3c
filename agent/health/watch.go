package health

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/gpuaas/maas-sidecar/agent/hostroot"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/task/gpu"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// Poster sends a report to the daemon (wire.HealthPath); an error is any
// answer but 2xx, or none (agent/transport/mtls implements it).
type Poster interface {
	Health(ctx context.Context, nodeID string, r wire.HealthReport) error
}

// Observer is told each pass's report and the Xid events it read first,
// and whether the daemon accepted it (agent/metrics implements it).
type Observer interface {
	HealthPass(r wire.HealthReport, fresh []wire.XidRecord)
	HealthReported(accepted bool, at time.Time)
}

// maxCarried bounds the Xid events carried while the daemon accepts no
// report; the oldest beyond it are dropped (and the report says so).
const maxCarried = 1024

// Watch is the passive watch of one node. Tools, Observer and Log may be
// nil.
type Watch struct {
	NodeID   string
	Interval time.Duration
	Root     hostroot.Root
	Exec     task.Exec
	Readers  []gpu.Reader
	Post     Poster
	Clock    clockwork.Clock
	Log      *slog.Logger
	Observer Observer
	// Tools takes the vendor tools for a pass's reading (release them
	// after), or says they are in use by a task or the enrollment's
	// inventory: the pass then leaves them alone. Nil: always free.
	Tools func() (release func(), ok bool)
	// Enrolled says the agent holds a certificate the daemon accepts;
	// until it does, reports are not sent (their Xids are carried).
	Enrolled func() bool

	kern    kernFollower
	seq     uint64
	carried []wire.XidRecord // read, not yet in a report the daemon accepted
	dropped int
	failing string // the post error last logged, "" while posts succeed
}

// Run makes a pass now and every Interval until ctx ends; it returns nil.
func (w *Watch) Run(ctx context.Context) error {
	if w.Log == nil {
		w.Log = slog.New(slog.DiscardHandler)
	}
	for {
		w.Pass(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-w.Clock.After(w.Interval):
		}
	}
}

// Pass reads, reports and observes once, and returns the report (sent
// only once the agent is enrolled).
// Its readings are bounded by the interval.
func (w *Watch) Pass(ctx context.Context) wire.HealthReport {
	if w.Log == nil {
		w.Log = slog.New(slog.DiscardHandler)
	}
	pctx, cancel := context.WithTimeout(ctx, w.Interval)
	defer cancel()
	now := w.Clock.Now()
	r, fresh := w.read(pctx, now)
	w.seq = max(w.seq+1, uint64(now.UnixMilli()))
	r.Seq = w.seq
	w.carry(fresh)
	r.Xids = append([]wire.XidRecord(nil), w.carried...)
	if w.dropped > 0 {
		r.Unreadable = append(r.Unreadable, unreadable(CheckKernelXid,
			fmt.Sprintf("%d older Xid event(s) dropped while the daemon accepted no report", w.dropped)))
	}
	if w.Observer != nil {
		w.Observer.HealthPass(r, fresh)
	}
	if w.Enrolled != nil && !w.Enrolled() {
		return r
	}
	err := w.Post.Health(pctx, w.NodeID, r)
	if err == nil {
		w.carried, w.dropped = nil, 0
	}
	w.logPost(err, len(r.Xids))
	if w.Observer != nil {
		w.Observer.HealthReported(err == nil, w.Clock.Now())
	}
	return r
}

// carry adds fresh to the events not yet accepted, dropping the oldest
// beyond maxCarried.
func (w *Watch) carry(fresh []wire.XidRecord) {
	w.carried = append(w.carried, fresh...)
	if n := len(w.carried) - maxCarried; n > 0 {
		w.carried, w.dropped = append([]wire.XidRecord(nil), w.carried[n:]...), w.dropped+n
	}
}

// logPost logs a failed post once until one succeeds again.
func (w *Watch) logPost(err error, xids int) {
	switch {
	case err == nil && w.failing != "":
		w.failing = ""
		w.Log.Info("health reports accepted again")
	case err != nil && err.Error() != w.failing:
		w.failing = err.Error()
		w.Log.Warn("health report not accepted; the next pass sends a new one with the Xid events carried", "err", err, "xids", xids)
	}
}
