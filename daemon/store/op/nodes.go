package op

import "github.com/gpuaas/maas-sidecar/daemon/lifecycle"

// Nodes are the nodes, with each site's hostnames indexed.
type Nodes interface {
	// LoadNode returns the node; false when there is none.
	LoadNode(id string) (lifecycle.Node, bool, error)
}

func loadNode(tx Nodes, op, id string) (lifecycle.Node, error) {
	n, ok, err := tx.LoadNode(id)
	if err == nil && !ok {
		err = notFound(op, "node", id)
	}
	return n, err
}
