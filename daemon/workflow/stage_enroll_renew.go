package workflow

import (
	"context"
	"time"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// varRenewalFor holds the creation time of the token whose renewal the
// enrollment wait granted (never the token or its hash).
const varRenewalFor = "enrollment_token_renewal_for"

// renewLead is how long before the token expires the wait grants its
// renewal, so that the grant is open when the agent finds it expired.
const renewLead = time.Minute

// awaitEnrollment parks the run until the agent enrolls (the agent API
// wakes NodeKey). Seed 001 §4.6, "token expired: regenerate the enrollment
// token, wait again, max 2 attempts": as the node's token nears expiry
// unspent, the wait grants its renewal until the end of the wait's
// attempt, and extends the grant when the wait tries again. The agent,
// answered enrollment_token_expired, renews it through the agent API with
// a successor it made on the host (no redeploy, no SSH step) and enrolls.
// Only the token the run deployed is granted: its successor never is, so
// a second expiry ends in agent_enrollment_failure when the wait times
// out, MAAS untouched.
func (d Deps) awaitEnrollment(ctx context.Context, c *runner.Context, n lifecycle.Node) (runner.Outcome, error) {
	wait := runner.Wait(zero, lifecycle.NodeKey(n.ID))
	t, err := d.Store.NodeEnrollmentToken(ctx, n.ID)
	switch {
	case lifecycle.ErrorCode(err) == lifecycle.CodeNotFound:
		return wait, nil
	case err != nil:
		return runner.Outcome{}, err
	case t.UsedAt != nil:
		return wait, nil
	case c.Var(varRenewalFor) != "" && c.Var(varRenewalFor) != stamp(t.CreatedAt):
		return wait, nil // the successor: one regeneration per run
	case c.Now().Before(t.ExpiresAt.Add(-renewLead)):
		return runner.Wait(t.ExpiresAt.Add(-renewLead), lifecycle.NodeKey(n.ID)), nil
	}
	until := stageDeadline(c, "enrollment_timeout")
	if t.RenewBy != nil && !t.RenewBy.Before(until) {
		if c.Var(varRenewalFor) == "" { // a crash lost the run's note of the grant
			c.SetVar(varRenewalFor, stamp(t.CreatedAt))
		}
		return wait, nil // granted for this attempt already
	}
	return d.grantRenewal(ctx, c, n, until, wait)
}

// grantRenewal records the grant in the store and in the run.
func (d Deps) grantRenewal(ctx context.Context, c *runner.Context, n lifecycle.Node, until time.Time,
	wait runner.Outcome) (runner.Outcome, error) {
	t, err := d.Store.GrantEnrollmentRenewal(ctx, n.ID, until)
	if lifecycle.ErrorCode(err) == lifecycle.CodeConflict {
		return wait, nil // spent meanwhile: the agent enrolls
	}
	if err != nil {
		return runner.Outcome{}, err
	}
	c.SetVar(varRenewalFor, stamp(t.CreatedAt))
	noteRenewal(c)
	c.Log.Info("enrollment token renewal granted", "component", "workflow", "node", n.ID,
		"token_expires_at", t.ExpiresAt, "renew_by", until)
	return wait, nil
}

// noteRenewal puts a granted renewal into the stage event's details.
func noteRenewal(c *runner.Context) {
	if v := c.Var(varRenewalFor); v != "" {
		c.Detail("enrollment_token_renewal", "granted for the token issued at "+v)
	}
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
