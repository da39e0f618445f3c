package admin_test

import (
	"context"
	"errors"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// testDef is a workflow that completes at once, except for hosts named
// bad-*, whose second stage fails with a hardware mismatch (manual
// intervention) so that recovery routes have a failed run to act on.
func testDef() *runner.Def {
	return &runner.Def{Name: "test", Stages: []runner.StageDef{
		{Stage: lifecycle.StageLoadSiteConfig, Run: func(context.Context, *runner.Context) (runner.Outcome, error) {
			return runner.Done("loaded"), nil
		}},
		{Stage: lifecycle.StageConfigureStorage, Run: func(_ context.Context, c *runner.Context) (runner.Outcome, error) {
			if strings.HasPrefix(c.Run.Hostname, "bad-") {
				return runner.Outcome{}, runner.Classed(lifecycle.FailHardwareMismatch, errors.New("no BOSS disk"))
			}
			return runner.Done("storage set"), nil
		}},
	}, Adopt: func(context.Context, *runner.Context) error { return nil }}
}
