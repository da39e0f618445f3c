package op

import (
	"context"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
)

// Nodes are the nodes, each undeleted one's hostname unique in its site.
type Nodes interface {
	// LoadNode returns the node; false when there is none.
	LoadNode(id string) (lifecycle.Node, bool, error)
	// NodeExists says whether a node has the id (deleted ones too).
	NodeExists(id string) (bool, error)
	// NodeOnHost returns the id of the site's undeleted node with the
	// hostname, in any case; "" when there is none.
	NodeOnHost(siteID, hostname string) (string, error)
	// SaveNode writes n over old (nil: n is new), moving its index
	// entries: a deleted node's hostname is free again.
	SaveNode(old *lifecycle.Node, n lifecycle.Node) error
}

// CreateNode implements lifecycle.NodeStore.
func (s Store) CreateNode(ctx context.Context, n lifecycle.Node) error {
	const op = "store.CreateNode"
	if err := rules.ValidateNewNode(op, n); err != nil {
		return err
	}
	// Shared: a batch of onboardings creates its nodes at once.
	return s.b.Batch(ctx, op, func(tx Tx) error {
		if _, err := LoadSite(tx, op, n.SiteID); err != nil {
			return err
		}
		if ok, err := tx.NodeExists(n.ID); err != nil || ok {
			if err == nil {
				err = lifecycle.Errorf(lifecycle.CodeConflict, op, "node id %q was already used; node ids are never reused", n.ID)
			}
			return err
		}
		if err := hostFree(tx, op, n.SiteID, n.Hostname); err != nil {
			return err
		}
		return tx.SaveNode(nil, rules.StampNewNode(n, s.b.Now()))
	})
}

// hostFree fails when another undeleted node of the site has hostname.
func hostFree(tx Nodes, op, siteID, hostname string) error {
	other, err := tx.NodeOnHost(siteID, hostname)
	if err == nil && other != "" {
		err = lifecycle.Errorf(lifecycle.CodeConflict, op, "hostname %q is already node %s in this site", hostname, other)
	}
	return err
}

// LoadNode returns the node, not found naming op when there is none.
func LoadNode(tx Nodes, op, id string) (lifecycle.Node, error) {
	n, ok, err := tx.LoadNode(id)
	if err == nil && !ok {
		err = notFound(op, "node", id)
	}
	return n, err
}

// GetNode implements lifecycle.NodeStore.
func (s Store) GetNode(ctx context.Context, id string) (n lifecycle.Node, err error) {
	const op = "store.GetNode"
	err = s.b.View(ctx, op, func(tx Tx) error {
		n, err = LoadNode(tx, op, id)
		return err
	})
	return n, err
}
