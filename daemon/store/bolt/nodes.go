package bolt

import (
	"context"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	"github.com/gpuaas/maas-sidecar/daemon/store/rules"
	bbolt "go.etcd.io/bbolt"
)

func hostKey(siteID, hostname string) []byte {
	return []byte(siteID + "\x00" + strings.ToLower(hostname))
}

// CreateNode implements lifecycle.NodeStore.
func (s *Store) CreateNode(ctx context.Context, n lifecycle.Node) error {
	const op = "store.CreateNode"
	if err := rules.ValidateNewNode(op, n); err != nil {
		return err
	}
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		if _, err := loadSite(tx, op, n.SiteID); err != nil {
			return err
		}
		if tx.Bucket(bNodes).Get([]byte(n.ID)) != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "node id %q was already used; node ids are never reused", n.ID)
		}
		hk := hostKey(n.SiteID, n.Hostname)
		if other := tx.Bucket(bNodeHosts).Get(hk); other != nil {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "hostname %q is already node %s in this site", n.Hostname, other)
		}
		n = rules.StampNewNode(n, s.now())
		if err := tx.Bucket(bNodeHosts).Put(hk, []byte(n.ID)); err != nil {
			return err
		}
		return putNode(tx, n)
	})
}

func loadNode(tx *bbolt.Tx, op, id string) (lifecycle.Node, error) {
	var n lifecycle.Node
	ok, err := get(tx.Bucket(bNodes), id, &n)
	if err == nil && !ok {
		err = notFound(op, "node", id)
	}
	return n, err
}

// GetNode implements lifecycle.NodeStore.
func (s *Store) GetNode(ctx context.Context, id string) (n lifecycle.Node, err error) {
	const op = "store.GetNode"
	err = s.view(ctx, op, func(tx *bbolt.Tx) error {
		n, err = loadNode(tx, op, id)
		return err
	})
	return n, err
}

// TransitionNode implements lifecycle.NodeStore.
func (s *Store) TransitionNode(ctx context.Context, t lifecycle.NodeTransition) (n lifecycle.Node, err error) {
	const op = "store.TransitionNode"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		cur, err := loadNode(tx, op, t.NodeID)
		if err != nil {
			return err
		}
		var write bool
		if n, write, err = rules.Transition(op, cur, t, s.now()); err != nil || !write {
			return err
		}
		if t.To == lifecycle.NodeDeleted {
			if err := tx.Bucket(bNodeHosts).Delete(hostKey(cur.SiteID, cur.Hostname)); err != nil {
				return err
			}
		}
		return putNode(tx, n)
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}

// UpdateNode implements lifecycle.NodeStore.
func (s *Store) UpdateNode(ctx context.Context, id string, fn func(*lifecycle.Node) error) (n lifecycle.Node, err error) {
	const op = "store.UpdateNode"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		old, err := loadNode(tx, op, id)
		if err != nil {
			return err
		}
		var rehosted bool
		if n, rehosted, err = rules.UpdateNode(op, old, fn, s.now()); err != nil {
			return err
		}
		if rehosted {
			if err := rehost(tx, op, old, n); err != nil {
				return err
			}
		}
		return putNode(tx, n)
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}

// rehost moves n's entry in the site's hostname index from old's name.
func rehost(tx *bbolt.Tx, op string, old, n lifecycle.Node) error {
	hosts := tx.Bucket(bNodeHosts)
	if other := hosts.Get(hostKey(n.SiteID, n.Hostname)); other != nil {
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "hostname %q is already node %s in this site", n.Hostname, other)
	}
	if err := hosts.Delete(hostKey(old.SiteID, old.Hostname)); err != nil {
		return err
	}
	return hosts.Put(hostKey(n.SiteID, n.Hostname), []byte(n.ID))
}

// LoadNode implements op.Nodes.
func (t txn) LoadNode(id string) (lifecycle.Node, bool, error) {
	var n lifecycle.Node
	ok, err := get(t.Bucket(bNodes), id, &n)
	return n, ok, err
}
