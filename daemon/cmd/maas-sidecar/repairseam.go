package main

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/repair"
)

// repairSeam starts the repair run a critical health verdict or a
// reported fault asks for, once it has quarantined the node
// (health.Repairer over repair.Starter). A node whose repair run is
// unfinished keeps that run.
type repairSeam struct{ starter repair.Starter }

// healthActor requests the repair runs the health service starts.
const healthActor = "health"

// StartRepair implements health.Repairer.
func (r repairSeam) StartRepair(ctx context.Context, nodeID, reason string) error {
	_, err := r.starter.Start(ctx, nodeID, reason, healthActor)
	return err
}

// lateRunner submits to the core's runner, which is built after the
// health service that holds the seam.
type lateRunner struct{ c *core }

func (l lateRunner) Submit(id string) { l.c.runner.Submit(id) }

func newRepairSeam(c *core, st repair.Store) repairSeam {
	return repairSeam{starter: repair.Starter{Store: st, Runner: lateRunner{c}, Clock: c.clock,
		NewID: func() (string, error) { return lifecycle.NewID(nil) }}}
}
