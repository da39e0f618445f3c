package agentapi

import (
	"context"
	"errors"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// auditor is the store's audit log (every lifecycle.Store has one).
type auditor interface {
	AppendAudit(ctx context.Context, e lifecycle.AuditEntry) (lifecycle.AuditEntry, error)
}

// refuseTask fails the claimed task t whose payload the resolver refused
// for its node (why), logs and audits the refusal; nothing is sent to the
// agent. It returns the store's error when the task cannot be failed.
func (a *API) refuseTask(ctx context.Context, t lifecycle.AgentTask, why error) error {
	msg := why.Error()
	var le *lifecycle.Error
	if errors.As(why, &le) {
		msg = le.Msg
	}
	ctx = context.WithoutCancel(ctx)
	if _, err := a.cfg.Store.CompleteTask(ctx, t.NodeID, t.ID, t.Seq, lifecycle.TaskResult{Success: false,
		Message: "refused at dispatch: " + msg, Details: map[string]string{"refused": "payload"}}); err != nil {
		return err
	}
	a.cfg.Logger.Warn("agent task refused at dispatch", "component", "agentapi", "node", t.NodeID, "task", t.ID,
		"type", string(t.Type), "reason", msg)
	if au, ok := a.cfg.Store.(auditor); ok {
		if _, err := au.AppendAudit(ctx, lifecycle.AuditEntry{Actor: "agentapi", Role: "system", Action: "task.refused",
			Reason: msg, TargetKind: "node", TargetID: t.NodeID, CorrelationIDs: map[string]string{"task_id": t.ID}}); err != nil {
			a.cfg.Logger.Warn("audit of a refused task failed", "component", "agentapi", "task", t.ID, "err", err)
		}
	}
	return nil
}

// AppendAudit audits through the bounded store when the store it wraps
// keeps an audit log, so that refuseTask's audit survives the wrapping.
func (s boundStore) AppendAudit(ctx context.Context, e lifecycle.AuditEntry) (lifecycle.AuditEntry, error) {
	au, ok := s.Store.(auditor)
	if !ok {
		return e, lifecycle.Errorf(lifecycle.CodeInternal, "agentapi.AppendAudit", "the store keeps no audit log")
	}
	return bounded(ctx, s.d, "store.AppendAudit", func(ctx context.Context) (lifecycle.AuditEntry, error) {
		return au.AppendAudit(ctx, e)
	})
}
