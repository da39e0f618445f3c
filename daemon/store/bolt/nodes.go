package bolt

import (
	"context"
	"sort"
	"strings"

	"github.com/gpuaas/maas-sidecar/daemon/lifecycle"
	bbolt "go.etcd.io/bbolt"
)

func hostKey(siteID, hostname string) []byte {
	return []byte(siteID + "\x00" + strings.ToLower(hostname))
}

// CreateNode implements lifecycle.NodeStore.
func (s *Store) CreateNode(ctx context.Context, n lifecycle.Node) error {
	const op = "store.CreateNode"
	if err := validateNewNode(op, n); err != nil {
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
		now := s.now()
		n.CreatedAt, n.UpdatedAt, n.IdentityRetained, n.OwningTaskID = now, now, true, ""
		if err := tx.Bucket(bNodeHosts).Put(hk, []byte(n.ID)); err != nil {
			return err
		}
		return put(tx.Bucket(bNodes), []byte(n.ID), n)
	})
}

func validateNewNode(op string, n lifecycle.Node) error {
	switch {
	case n.ID == "":
		return lifecycle.Invalid(op, "id", "node id is required")
	case n.SiteID == "":
		return lifecycle.Invalid(op, "site_id", "site_id is required")
	case strings.TrimSpace(n.Hostname) == "":
		return lifecycle.Invalid(op, "hostname", "hostname is required")
	case n.Status != lifecycle.NodeBootstrapIssued && n.Status != lifecycle.NodeEnrolling:
		return lifecycle.Invalid(op, "status", "a new node starts in bootstrap_issued or enrolling, not %q", n.Status)
	}
	return nil
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

// ListNodes implements lifecycle.NodeStore, ordered by hostname then id.
func (s *Store) ListNodes(ctx context.Context, f lifecycle.NodeFilter) ([]lifecycle.Node, error) {
	out := []lifecycle.Node{}
	err := s.view(ctx, "store.ListNodes", func(tx *bbolt.Tx) error {
		return tx.Bucket(bNodes).ForEach(func(k, _ []byte) error {
			var n lifecycle.Node
			if _, err := get(tx.Bucket(bNodes), string(k), &n); err != nil {
				return err
			}
			if (f.SiteID == "" || f.SiteID == n.SiteID) && (f.Status == "" || f.Status == n.Status) {
				out = append(out, n)
			}
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Hostname != out[j].Hostname {
			return out[i].Hostname < out[j].Hostname
		}
		return out[i].ID < out[j].ID
	})
	return out, err
}

// TransitionNode implements lifecycle.NodeStore.
func (s *Store) TransitionNode(ctx context.Context, t lifecycle.NodeTransition) (n lifecycle.Node, err error) {
	const op = "store.TransitionNode"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		cur, err := loadNode(tx, op, t.NodeID)
		if err != nil {
			return err
		}
		if cur.Status == t.To && cur.Status != t.From && cur.OwningTaskID == ownerFor(t) {
			n = cur // replay of a transition that already took effect
			return nil
		}
		if cur.Status != t.From {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is %s, not %s; cannot move it to %s", cur.ID, cur.Status, t.From, t.To)
		}
		c := t.Context
		c.IdentityRetained = cur.IdentityRetained
		if err := lifecycle.CheckTransition(t.From, t.To, c); err != nil {
			return err
		}
		cur.Status, cur.OwningTaskID, cur.UpdatedAt = t.To, ownerFor(t), s.now()
		if t.To == lifecycle.NodeDeleted {
			cur.IdentityRetained = false
			if err := tx.Bucket(bNodeHosts).Delete(hostKey(cur.SiteID, cur.Hostname)); err != nil {
				return err
			}
		}
		n = cur
		return put(tx.Bucket(bNodes), []byte(cur.ID), cur)
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}

func ownerFor(t lifecycle.NodeTransition) string {
	if t.To.NeedsOwningTask() {
		return t.Context.TaskID
	}
	return ""
}

// UpdateNode implements lifecycle.NodeStore.
func (s *Store) UpdateNode(ctx context.Context, id string, fn func(*lifecycle.Node) error) (n lifecycle.Node, err error) {
	const op = "store.UpdateNode"
	err = s.update(ctx, op, func(tx *bbolt.Tx) error {
		old, err := loadNode(tx, op, id)
		if err != nil {
			return err
		}
		n = old
		if err := fn(&n); err != nil {
			return err
		}
		if n.ID != old.ID || n.SiteID != old.SiteID || n.Status != old.Status || n.OwningTaskID != old.OwningTaskID {
			return lifecycle.Invalid(op, "status", "id, site, status and owning task change only through TransitionNode")
		}
		if old.Status == lifecycle.NodeDeleted {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "node %s is deleted", id)
		}
		if n.IdentityRetained && !old.IdentityRetained {
			return lifecycle.Errorf(lifecycle.CodeConflict, op, "a revoked node identity cannot be restored")
		}
		if err := rehost(tx, op, old, n); err != nil {
			return err
		}
		n.CreatedAt, n.UpdatedAt = old.CreatedAt, s.now()
		return put(tx.Bucket(bNodes), []byte(id), n)
	})
	if err != nil {
		return lifecycle.Node{}, err
	}
	return n, nil
}

func rehost(tx *bbolt.Tx, op string, old, n lifecycle.Node) error {
	if strings.EqualFold(old.Hostname, n.Hostname) {
		return nil
	}
	if strings.TrimSpace(n.Hostname) == "" {
		return lifecycle.Invalid(op, "hostname", "hostname is required")
	}
	hosts := tx.Bucket(bNodeHosts)
	if other := hosts.Get(hostKey(n.SiteID, n.Hostname)); other != nil {
		return lifecycle.Errorf(lifecycle.CodeConflict, op, "hostname %q is already node %s in this site", n.Hostname, other)
	}
	if err := hosts.Delete(hostKey(old.SiteID, old.Hostname)); err != nil {
		return err
	}
	return hosts.Put(hostKey(n.SiteID, n.Hostname), []byte(n.ID))
}
