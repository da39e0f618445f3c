package workflow

import (
	"context"
	"strconv"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// onboardingEnded publishes how an onboarding ended (runner.Def.OnEnd),
// as decomEnded does for a turnover: node.onboarding.completed carrying
// the run's clean certificate, or node.onboarding.failed (retryable,
// cancelled or needing a human) carrying the certificate of its
// quarantine when the acceptance check quarantined the node. A failure's
// event is keyed by stage and attempt, so each failure of a retried run
// is told once.
func (d Deps) onboardingEnded(ctx context.Context, run lifecycle.Run) {
	typ, where := lifecycle.EventOnboardingFailed, string(run.CurrentStage)+"#"+strconv.Itoa(run.CurrentAttempt)
	switch run.Status {
	case lifecycle.JobCompleted:
		typ, where = lifecycle.EventOnboardingCompleted, "end"
	case lifecycle.JobCancelled:
		where = "cancelled"
	}
	data := EventData{Stage: run.CurrentStage, Status: run.Status, FailureClass: run.FailureClass, Message: run.ErrorMessage,
		Certificate: d.runCertificate(ctx, run.ID)}
	at := run.UpdatedAt
	if err := d.publish(ctx, run, where, typ, data, func() time.Time { return at }); err != nil {
		d.logger().Error("onboarding event not recorded", "run", run.ID, "type", typ, "err", err)
	}
}
