package workflow

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// Outbox records the lifecycle events of decommissions for the control
// plane: the store's durable outbox (lifecycle.OutboxStore.AppendEvent
// satisfies it). Appending an event whose ID is stored is a no-op, so a
// stage that runs again after a crash publishes nothing twice.
type Outbox interface {
	AppendEvent(ctx context.Context, e lifecycle.OutboxEvent) (lifecycle.OutboxEvent, error)
}

// EventData is the body of a decommission or onboarding event (an
// onboarding's has no mode). Never a secret.
type EventData struct {
	Mode         lifecycle.DecommissionMode `json:"mode,omitempty"`
	Reason       string                     `json:"reason,omitempty"`
	Stage        lifecycle.Stage            `json:"stage,omitempty"`
	Status       lifecycle.JobState         `json:"status,omitempty"`
	FailureClass lifecycle.FailureClass     `json:"failure_class,omitempty"`
	Message      string                     `json:"message,omitempty"`
	// Certificate is the run's signed clean certificate (a DSSE envelope)
	// on the event that ends it, once issued.
	Certificate json.RawMessage `json:"certificate,omitempty"`
	// Changes are node.inventory.changed's differences, one line each.
	Changes []string `json:"changes,omitempty"`
}

// EventID is the idempotency key of a decommission event: the run, where
// in it (a stage, or a stage and attempt), and the type.
func EventID(runID, where string, typ lifecycle.EventType) string {
	return runID + "/" + where + "/" + string(typ)
}

// publish appends one event of run at where (see EventID).
func (d Deps) publish(ctx context.Context, run lifecycle.Run, where string, typ lifecycle.EventType, data EventData, now func() time.Time) error {
	if d.Outbox == nil {
		return nil
	}
	data.Mode, data.Reason = run.Mode, run.Reason
	body, err := json.Marshal(data)
	if err != nil {
		return lifecycle.Wrap(lifecycle.CodeInternal, "workflow.publish", err)
	}
	_, err = d.Outbox.AppendEvent(ctx, lifecycle.OutboxEvent{ID: EventID(run.ID, where, typ), Type: typ,
		NodeID: run.NodeID, SiteID: run.SiteID, RunID: run.ID, Data: body, OccurredAt: now()})
	return err
}

// event publishes a node event of the stage c runs.
func (d Deps) event(ctx context.Context, c *runner.Context, typ lifecycle.EventType, msg string) error {
	st := c.Run.CurrentStage
	return d.publish(ctx, c.Run, string(st), typ, EventData{Stage: st, Message: msg}, c.Now)
}

// decomEnded publishes how a decommission ended (runner.Def.OnEnd):
// completed, failed (retryable or cancelled) or needing a human. A
// failure's event is keyed by stage and attempt, so each failure of a
// retried run is told once.
func (d Deps) decomEnded(ctx context.Context, run lifecycle.Run) {
	typ, where := lifecycle.EventDecommissionFailed, string(run.CurrentStage)+"#"+strconv.Itoa(run.CurrentAttempt)
	switch run.Status {
	case lifecycle.JobCompleted:
		typ, where = lifecycle.EventDecommissionCompleted, "end"
	case lifecycle.JobCancelled:
		where = "cancelled"
	case lifecycle.JobFailedManualIntervention:
		typ = lifecycle.EventManualIntervention
	}
	data := EventData{Stage: run.CurrentStage, Status: run.Status, FailureClass: run.FailureClass, Message: run.ErrorMessage,
		Certificate: d.runCertificate(ctx, run.ID)}
	at := run.UpdatedAt
	if err := d.publish(ctx, run, where, typ, data, func() time.Time { return at }); err != nil {
		d.logger().Error("decommission event not recorded", "run", run.ID, "type", typ, "err", err)
	}
}
