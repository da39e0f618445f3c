package runner

import (
	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// apply journals an action's state change, audits it and reschedules the run.
func (r *Runner) apply(rs *runState, req ActionRequest, adoptErr error) actionOutcome {
	const op = "runner.Act"
	prior := rs.run
	noop, err := lifecycle.CheckAction(req.Action, prior.Status)
	if err == nil && !noop && req.Action == lifecycle.ActionAdoptObservedState && adoptErr != nil {
		err = lifecycle.Errorf(lifecycle.CodeConflict, op, "observed state does not meet the run's goal: %v", adoptErr)
	}
	if err != nil {
		return actionOutcome{err: err}
	}
	s := r.sites[prior.SiteID]
	if s == nil || s.guard.check() != nil {
		return actionOutcome{err: r.notDriven(prior.ID)}
	}
	def, err := r.opt.Defs(prior)
	if err != nil {
		return actionOutcome{err: err}
	}
	next := prior
	if !noop {
		mutate := r.mutation(def, req, prior)
		if next, _, err = r.opt.Store.AdvanceRun(r.ctx, s.lease.Fence(), prior.ID, mutate, nil); err != nil {
			return actionOutcome{err: err}
		}
		rs.run = next
	}
	if err := r.audit(req, prior, next, noop); err != nil {
		r.log.Error("audit write failed", "run", prior.ID, "action", req.Action, "err", err)
	}
	if !noop {
		r.reschedule(s, rs, prior)
	}
	return actionOutcome{res: ActionResult{Run: next, NoOp: noop}}
}

// reschedule puts a run back into motion after an action changed it.
func (r *Runner) reschedule(s *siteState, rs *runState, prior lifecycle.Run) {
	if prior.Status == lifecycle.JobPending {
		kept := s.pending[:0]
		for _, id := range s.pending {
			if id != rs.run.ID {
				kept = append(kept, id)
			}
		}
		s.pending = kept
	}
	if holdsSlot(rs.run.Status) {
		// A restarted run was admitted before; it keeps or retakes its slot.
		r.take(s, rs)
		r.unpark(rs)
		r.dispatch(rs)
		return
	}
	r.proceed(rs)
}

func (r *Runner) audit(req ActionRequest, prior, next lifecycle.Run, noop bool) error {
	result := "applied"
	if noop {
		result = "noop"
	}
	corr := map[string]string{"run_id": prior.ID, "result": result}
	for k, v := range map[string]string{"batch_id": prior.BatchID, "node_id": prior.NodeID, "request_id": req.RequestID, "maas_system_id": prior.MaasSystemID} {
		if v != "" {
			corr[k] = v
		}
	}
	_, err := r.opt.Store.AppendAudit(r.ctx, lifecycle.AuditEntry{
		Actor: req.Actor, Role: req.Role, Action: string(req.Action), Reason: req.Reason,
		TargetKind: string(prior.Kind), TargetID: prior.ID,
		PriorState: string(prior.Status), PriorStage: string(prior.CurrentStage),
		ExpectedTarget: string(req.Action.TargetFrom(prior.Status)), CorrelationIDs: corr,
	})
	return err
}
