package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Removals take a node out of the store with every record that names it.
type Removals interface {
	// NodeHasTasks says whether any agent task, open or finished, names
	// the node.
	NodeHasTasks(nodeID string) (bool, error)
	// DropNode deletes n, its index entries, enrollment tokens, MAAS state
	// and task sequence.
	DropNode(n lifecycle.Node) error
}

// DeleteUnenrolledNode implements lifecycle.NodeStore.
func (s Store) DeleteUnenrolledNode(ctx context.Context, id string) (n lifecycle.Node, err error) {
	const op = "store.DeleteUnenrolledNode"
	err = s.b.Update(ctx, op, func(tx Tx) error {
		if n, err = LoadNode(tx, op, id); err != nil {
			return err
		}
		if err := rules.CheckDeleteUnenrolled(op, n); err != nil {
			return err
		}
		if has, err := tx.NodeHasTasks(id); err != nil || has {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s has agent tasks; it is not deleted", id)
			}
			return err
		}
		return tx.DropNode(n)
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}
