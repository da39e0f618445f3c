package workflow

import (
	"context"
	"strconv"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// datasourceHints mark a deployment that failed in cloud-init's datasource
// or final stage, the class the site may retry (seed 001 §4.3).
var datasourceHints = []string{"datasource", "cloud-init", "cloudinit", "cloud_init"}

// classifyDeployFailure reads MAAS's events and either routes to the
// bounded datasource retry or stops for a human. Unknown means generic.
func (d Deps) classifyDeployFailure(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	kind := "generic"
	s, err := d.open(ctx, c)
	if err == nil {
		var texts []string
		texts, err = s.events.EventTexts(ctx, c.Run.MaasSystemID, 50)
		if m, merr := s.machine(ctx, c); merr == nil {
			texts = append(texts, m.StatusMessage, m.ErrorDescription)
		}
		if matchesAny(strings.ToLower(strings.Join(texts, "\n")), datasourceHints) {
			kind = "datasource_like"
		}
	}
	if err != nil {
		c.Detail("classification_error", err.Error())
	}
	c.SetVar(varFailureKind, kind)
	c.Detail("failure_kind", kind)
	used := atoi(c.Var(varDSRetries))
	if kind == "datasource_like" && c.Policy.EnableDeployRetryOnDatasourceFailure && used < c.Policy.MaxDeployRetryAttempts {
		return runner.Goto(lifecycle.StageRecoverForDatasourceRetry, "datasource-like failure; bounded retry "+strconv.Itoa(used+1)), nil
	}
	return runner.Outcome{}, runner.Classed(lifecycle.FailDeployCloudInit, lifecycle.Errorf(lifecycle.CodeConflict,
		"workflow", "deployment failed (%s) after %d datasource retries", kind, used))
}

// recoverForDatasourceRetry aborts or releases the machine back to Ready,
// waits for it, then re-enters the deploy once more.
func (d Deps) recoverForDatasourceRetry(ctx context.Context, c *runner.Context) (runner.Outcome, error) {
	s, m, err := d.refresh(ctx, c)
	if err != nil {
		return runner.Outcome{}, err
	}
	switch m.Status {
	case lifecycle.MaasReady:
		c.SetVar(varDSRetries, strconv.Itoa(atoi(c.Var(varDSRetries))+1))
		return runner.Goto(lifecycle.StageDeployViaMaas, "back to Ready; redeploying"), nil
	case lifecycle.MaasDeploying:
		err = abort(ctx, s.releaser, m.SystemID)
	case lifecycle.MaasFailedDeployment, lifecycle.MaasDeployed, lifecycle.MaasAllocated:
		err = release(ctx, s.releaser, m.SystemID)
	case lifecycle.MaasReleasing, lifecycle.MaasDiskErasing:
	default:
		return runner.Outcome{}, runner.Classed(lifecycle.FailStateAmbiguity, lifecycle.Errorf(lifecycle.CodeConflict,
			"workflow", "cannot recover machine %s from %s", m.SystemID, m.Status))
	}
	if err != nil {
		return runner.Outcome{}, err
	}
	return runner.Wait(zero, lifecycle.MachineKey(m.SystemID)), nil
}

func matchesAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// Events reads a machine's newest MAAS events as "type - text" lines.
type Events interface {
	EventTexts(ctx context.Context, systemID string, limit int) ([]string, error)
}
