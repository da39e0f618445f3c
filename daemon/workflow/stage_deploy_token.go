package workflow

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/runner"
)

// reinstateDeployToken makes the enrollment token of the deploy being
// adopted the node's working one again. That deploy is the run's last
// one whose answer was lost (varDeployToken): MAAS applied it late, after
// a retry had issued a newer token, which superseded it, for a deploy
// MAAS then refused. Its payload is what the machine boots with, so its
// token is reinstated and the newer one superseded in its place
// (store/rules.Reinstate). Already the newest (the lost deploy was the
// last one issued), nothing changes. A token that cannot come back (its
// or the newer one's agent enrolled already) is noted on the event; the
// enrollment wait tells what follows.
func (d Deps) reinstateDeployToken(ctx context.Context, c *runner.Context) error {
	hash := c.Var(varDeployToken)
	if hash == "" || c.Run.NodeID == "" {
		return nil
	}
	_, err := d.Store.ReinstateEnrollmentToken(ctx, c.Run.NodeID, hash)
	switch lifecycle.ErrorCode(err) {
	case "":
		c.SetVar(varDeployToken, "")
		return nil
	case lifecycle.CodeConflict, lifecycle.CodeNotFound:
		c.Detail("token_not_reinstated", err.Error())
		c.SetVar(varDeployToken, "")
		return nil
	}
	return err
}
