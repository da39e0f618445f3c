package repair

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
)

// Replace records rep on repair_required node nodeID (the recorded bill
// of materials names the new part; both parts' histories say replaced,
// with the ticket) and starts the acceptance run that takes the node
// back to active, or leaves it repair_required. Bad input (a missing
// field, an old serial the node's bill of materials does not hold) is
// invalid naming the field, a node in another state or held by a run
// a conflict: either changes nothing.
func (s Starter) Replace(ctx context.Context, nodeID string, rep lifecycle.PartReplacement, actor string) (Started, error) {
	const op = "repair.Replace"
	if err := rep.Validate(op); err != nil {
		return Started{}, err
	}
	if _, ok, err := s.live(ctx, nodeID); err != nil || ok {
		if err == nil {
			err = lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s has an unfinished repair run", nodeID)
		}
		return Started{}, err
	}
	id, err := s.NewID()
	if err != nil {
		return Started{}, lifecycle.Wrap(lifecycle.CodeInternal, op, err)
	}
	var evs []lifecycle.PartEvent
	n, err := s.Store.UpdateNode(ctx, nodeID, func(n *lifecycle.Node) (err error) {
		evs, err = rep.Replace(n, s.Clock.Now().UTC(), id)
		return err
	})
	if err != nil {
		return Started{}, err
	}
	if err := s.Store.RecordPartEvents(ctx, evs...); err != nil {
		return Started{}, err
	}
	run, err := lifecycle.NewAcceptanceRun(id, n, rep, actor, s.Clock.Now().UTC())
	if err != nil {
		return Started{}, err
	}
	return s.submit(ctx, run)
}
