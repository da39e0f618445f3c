package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gpuaas/maas-sidecar/agent/metrics"
	"github.com/gpuaas/maas-sidecar/agent/task"
	"github.com/gpuaas/maas-sidecar/agent/wire"
)

// verify checks a delivered task before anything runs. A task bound to
// a certificate serial runs only under that certificate: one issued to an
// earlier identity of this node (before a reimage, a revoke or a
// re-enrollment) is refused even on a fresh state directory. A task
// without a serial comes from a daemon that predates the binding.
func (a *Agent) verify(t wire.Task) error {
	switch {
	case wire.Verify(a.pub, t) != nil:
		return errors.New("rejected: bad signature")
	case t.NodeID != a.o.Config.NodeID:
		return fmt.Errorf("rejected: task is for node %q", t.NodeID)
	case !a.o.Clock.Now().Before(t.ExpiresAt):
		return fmt.Errorf("rejected: task expired at %s", t.ExpiresAt.UTC().Format(time.RFC3339))
	case t.CertSerial != "" && t.CertSerial != a.serial():
		return fmt.Errorf("rejected: task was issued to certificate %s, not this agent's", t.CertSerial)
	case t.Seq <= a.seq:
		return fmt.Errorf("rejected: sequence %d already used (high-water %d)", t.Seq, a.seq)
	}
	return nil
}

// handle verifies, records the sequence, runs and reports one task.
func (a *Agent) handle(ctx context.Context, t wire.Task) {
	log := a.log.With("task", t.ID, "type", t.Type, "seq", t.Seq)
	if err := a.verify(t); err != nil {
		a.stats.rejected.Add(1)
		a.o.Observer.TaskDone(t.Type, metrics.ResultRejected)
		log.Warn("task refused", "err", err)
		a.report(ctx, log, t, wire.Result{Seq: t.Seq, Rejected: true, Message: err.Error(), FinishedAt: a.o.Clock.Now()})
		return
	}
	if err := a.o.State.SetHighWater(t.Seq); err != nil {
		log.Error("cannot record the task sequence; not running it", "err", err)
		return
	}
	a.seq = t.Seq
	res, after := a.execute(ctx, log, t)
	a.report(ctx, log, t, res)
	if after != nil {
		if err := after(ctx); err != nil {
			log.Warn("post-report step failed", "err", err)
		}
	}
}

// execute runs the task's handler with its own context and timeout.
func (a *Agent) execute(ctx context.Context, log *slog.Logger, t wire.Task) (res wire.Result, after func(context.Context) error) {
	res.Seq = t.Seq
	h, ok := a.o.Registry.Lookup(t.Type)
	if !ok {
		res.Message = "unsupported task type " + t.Type
		a.o.Observer.TaskDone(t.Type, metrics.ResultUnsupported)
		res.FinishedAt = a.o.Clock.Now()
		return res, nil
	}
	timeout := a.o.Config.TaskTimeout
	if to, ok := h.(task.Timeouter); ok {
		timeout = to.Timeout()
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a.tools.Lock()
	defer a.tools.Unlock()
	a.busy.Store(true)
	defer a.busy.Store(false)
	start := a.o.Clock.Now()
	out, err := runSafely(tctx, h, a.env(), t.Payload)
	a.stats.ran.Add(1)
	res.Success, res.Message, res.Details, res.FinishedAt = err == nil, out.Message, out.Details, a.o.Clock.Now()
	res.Evidence = out.Evidence
	if err != nil {
		res.Message = err.Error()
	}
	a.o.Observer.TaskDone(t.Type, taskResult(res.Success))
	log.Info("task finished", "success", res.Success, "duration_seconds", res.FinishedAt.Sub(start).Seconds())
	return res, out.After
}

func runSafely(ctx context.Context, h task.Handler, env task.Env, payload []byte) (out task.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("task panicked: %v", r)
		}
	}()
	return h.Run(ctx, env, payload)
}

func (a *Agent) env() task.Env {
	return task.Env{Root: a.o.Root, Exec: a.o.Exec, Systemd: a.o.Systemd, Clock: a.o.Clock, Log: a.log,
		AgentUnit: a.o.Config.UnitName, Policy: a.o.Policy}
}

// reportPatience is how long a finished task's result is retried while
// the daemon cannot take it (a restart, an upgrade, a failover): the
// result may hold an hour of diagnostics, and the daemon's run waits for
// it until the task's deadline. Five quick tries lost it to a daemon
// down for a second, and the run then waited out the whole deadline.
const reportPatience = 15 * time.Minute

// report sends a result, retrying transient failures with the loop's
// backoff for up to reportPatience. A refused report (4xx) is logged:
// the daemon's lease decides what's next.
func (a *Agent) report(ctx context.Context, log *slog.Logger, t wire.Task, res wire.Result) {
	bo := a.retryDelays()
	giveUp := a.o.Clock.Now().Add(reportPatience)
	for {
		err := a.o.Transport.Report(ctx, a.o.Config.NodeID, t.ID, res)
		var p *wire.Problem
		if err == nil {
			a.contacted()
		}
		if err == nil || (errors.As(err, &p) && p.Status < 500) || !a.o.Clock.Now().Before(giveUp) {
			if err != nil {
				log.Warn("task result not accepted", "err", err)
			}
			return
		}
		select {
		case <-a.o.Clock.After(bo.Next()):
		case <-ctx.Done():
			return
		}
	}
}
